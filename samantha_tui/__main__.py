from samantha_tui.cli import main

raise SystemExit(main())
