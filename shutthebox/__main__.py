try:
    from .cli import main

    status = main()
except KeyboardInterrupt:  # Ctrl-C while starting: quiet, exit status 130 (as ShutTheBox)
    status = 130
raise SystemExit(status)
