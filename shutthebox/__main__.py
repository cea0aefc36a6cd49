import gc

gc.set_threshold(50_000)  # as the ShutTheBox script: see docs/ARCHITECTURE.md, "A question's process"
try:
    from .cli import main

    status = main()
    gc.freeze()  # the process ends here: its last collection would walk every object only to free none
except KeyboardInterrupt:  # Ctrl-C while starting: quiet, exit status 130 (as ShutTheBox)
    status = 130
raise SystemExit(status)
