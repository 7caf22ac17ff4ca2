import sys

from idsbench.cli import main

sys.exit(main())
