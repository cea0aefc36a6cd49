"""One package per game; shutthebox.registry names them."""
