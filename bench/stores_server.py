"""``lextools serve`` with app config the command line does not take (the cardbox store's bounds), for
``bench.probes_stores``: the same server (``service.server.serve``: gunicorn, gevent workers, the app
built after gevent's patching), on 127.0.0.1, with the config given as JSON.

    python -m bench.stores_server --lexicons DIR --config '{"CARDBOX_CLIENT_COUNT": 4, ...}'

Only the standard library and ``service.server`` are imported here: the app's modules must load after
``serve`` patches the standard library (service/server.py), so this is not part of the probes' module.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from service.server import serve


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lexicons", type=Path, required=True)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--config", default="{}", help="app config as a JSON object")
    args = ap.parse_args(argv)
    serve(host="127.0.0.1", port=0, workers=args.workers, lexicons=args.lexicons, app_config=json.loads(args.config))
    return 0


if __name__ == "__main__":
    sys.exit(main())
