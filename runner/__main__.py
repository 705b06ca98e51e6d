from runner.cli import main

raise SystemExit(main())
