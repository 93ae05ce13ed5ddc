"""``lextools serve``: the service's command, added to the ``lextools`` CLI by the entry point
``serve`` of the group ``lextools.commands`` (pyproject.toml), so that the library never imports the
service. It takes the CLI's own ``--lexicons`` and ``--record`` options (:mod:`lextools.cli.common`).
"""

from __future__ import annotations

from typing import Annotated

import typer

from lextools.cli.common import DatabaseOpt, LexiconsOpt, RecordOpt, home
from lextools.core.edition import load_edition
from lextools.features.record import default_record
from service.worker_renewal import RENEW_MB

app = typer.Typer()


#: Host names answered, and proxies trusted: each repeatable, each defaulting to a comma-separated variable.
AllowedHostOpt = Annotated[
    list[str] | None,
    typer.Option(
        help="A Host name clients reach this server by (repeatable; .example.org: with its subdomains). "
        "localhost and IP addresses are always answered; default: $LEXTOOLS_ALLOWED_HOSTS, comma-separated."
    ),
]
TrustedProxyOpt = Annotated[
    list[str] | None,
    typer.Option(
        help="A proxy (address or CIDR network) whose X-Forwarded-For names the client that rate limits and "
        "the director's lock-out count by (repeatable); default: $LEXTOOLS_TRUSTED_PROXIES, comma-separated."
    ),
]


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (127.0.0.1: this machine only).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port (0: any free port, logged at start).")] = 8000,
    workers: Annotated[int, typer.Option(min=1, help="gunicorn worker processes; each loads the lexicons once.")] = 2,
    lexicons: LexiconsOpt = None,
    kiosk: Annotated[
        str | None, typer.Option(help="Serve only the word judge for this edition (a table kiosk); all else 404.")
    ] = None,
    judge_clear: Annotated[
        float, typer.Option(min=1, max=600, help="Seconds a verdict stays on the judge (Esc clears it sooner).")
    ] = 10.0,
    record: RecordOpt = None,
    allowed_host: AllowedHostOpt = None,
    database: DatabaseOpt = None,
    trusted_proxy: TrustedProxyOpt = None,
    renew_mb: Annotated[
        float,
        typer.Option(
            min=0,
            help="MB of memory a worker may gain before it is replaced by a fresh one once idle (0: never).",
        ),
    ] = RENEW_MB,
) -> None:
    """Serve the lexicons over HTTP (JSON under /v1) with gunicorn until interrupted.

    Refuses to start (exit 2, one line, no file created) when there is nothing to serve — no lexicon
    in the directory, or with --kiosk none for its edition — or when the port is in use.
    """
    # Imported here, when the server starts: service.server brings in gunicorn (and gevent), which
    # `lextools --help` and `lextools serve --help` (they import this module) need not load.
    from service.server import serve as run_server  # noqa: PLC0415

    if kiosk is not None:
        kiosk = load_edition(kiosk).name  # an unknown edition: one line, exit 2; ES-FISE is es-fise
    where = home(lexicons)
    config = {
        "KIOSK": kiosk,
        "JUDGE_CLEAR_SECONDS": judge_clear,
        "RECORD": record if record is not None else default_record(where),
        "ALLOWED_HOSTS": allowed_host or None,  # None: $LEXTOOLS_ALLOWED_HOSTS
        "TRUSTED_PROXIES": trusted_proxy or None,  # None: $LEXTOOLS_TRUSTED_PROXIES
        "DATABASE": database,  # None: $LEXTOOLS_DATABASE_URL, else SQLite files beside the record
    }
    run_server(host=host, port=port, workers=workers, lexicons=where, app_config=config, renew_mb=renew_mb)
