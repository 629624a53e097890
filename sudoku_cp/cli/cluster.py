"""``--cluster ADDRESS``: the batch commands on a Dask cluster instead of local worker processes."""

from __future__ import annotations

import argparse
import contextlib
import logging
from collections.abc import Iterator
from typing import Any

__all__ = ["CLOSE_SECONDS", "add_cluster_option", "cluster_client", "cluster_note"]

#: How long closing the client may wait for the scheduler to acknowledge.
CLOSE_SECONDS = 3


def add_cluster_option(parser: argparse.ArgumentParser) -> None:
    """``--cluster ADDRESS``: a Dask scheduler (``tcp://host:8786``) or ``local:N`` for N local workers."""
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="run on a Dask cluster: a scheduler address (tcp://host:8786), or local:N to start N workers "
        "here; the output is the same as with --jobs (needs pip install 'sudoku-cp[dask]')",
    )


@contextlib.contextmanager
def cluster_client(args: argparse.Namespace) -> Iterator[Any | None]:
    """A ``distributed.Client`` for ``--cluster`` (None without it); a ``local:N`` cluster is closed after."""
    address = getattr(args, "cluster", None)
    if not address:
        yield None
        return
    from ..batch.cluster import ClusterWatch, close_cluster, connect

    # distributed logs every failed reconnection with a traceback, through loggers whose levels its own
    # configuration sets; the command says itself what happened, so logging is off while it runs
    logging.disable(logging.CRITICAL)
    try:
        client, cluster = connect(address)
        try:
            _WATCHES[id(client)] = ClusterWatch(client)
            yield client
        finally:
            _WATCHES.pop(id(client)).close()
            with contextlib.suppress(Exception):  # a lost scheduler was reported already; closing may fail
                client.close(timeout=CLOSE_SECONDS)  # without a bound it waits 30 s for a lost scheduler
            if cluster is not None:
                with contextlib.suppress(Exception):
                    close_cluster(cluster)  # its workers at once, not after their running chunks
    finally:
        logging.disable(logging.NOTSET)  # only now: closing a client that lost its scheduler logs too


#: The watch of each client ``cluster_client`` opened, while it is open.
_WATCHES: dict[int, Any] = {}


def cluster_note(client: Any | None) -> str:
    """The summary line's words on the cluster behind ``client`` (empty without one): its workers now, and
    the workers lost and tasks retried while the run used it. Call it inside ``cluster_client``."""
    if client is None:
        return ""
    from ..batch.cluster import connected
    from ..wording import plural

    workers = 0
    if connected(client):  # asking a lost scheduler would wait for the client's reconnection timeout
        with contextlib.suppress(Exception):  # lost meanwhile
            # asked now: scheduler_info() is a copy, refreshed every few seconds
            workers = len(client.nthreads())
    note = f", on {workers:,} Dask {plural(workers, 'worker')}"
    watch = _WATCHES.get(id(client))
    if watch is not None and watch.workers_lost:
        note += f", {watch.workers_lost:,} {plural(watch.workers_lost, 'worker')} lost"
    if watch is not None and watch.tasks_retried:
        note += f", {watch.tasks_retried:,} {plural(watch.tasks_retried, 'task')} retried"
    return note
