"""An ordered map over a Dask cluster: the same contract as ``OrderedPool``, the workers elsewhere.

sudoku-cp grows no cluster protocol of its own: it sends the batch engine's chunks to Dask
``distributed`` workers (a laptop ``LocalCluster``, ``dask scheduler``/``dask worker`` over SSH,
Kubernetes, HPC queues). Tasks are submitted as futures, at most ``ahead`` past the oldest unanswered one,
and answers are yielded in input order, so memory stays flat on the client and the workers however large
the input. Dask recomputes the tasks of a worker that dies (their futures are still held here), so nothing
is lost or duplicated; a lost scheduler is a ``ClusterError`` after the answers already yielded, which the
caller has written: a valid prefix. Each worker process builds its state (the backend) once per
configuration and keeps it, as a pool worker does; tasks in one worker process run one at a time, since
that state is not thread-safe.

``distributed`` is an optional dependency: ``pip install 'sudoku-cp[dask]'``.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import pickle
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ..errors import ClusterError, UsageError
from ..optional import optional_import

__all__ = [
    "ClusterError",
    "ClusterPool",
    "ClusterWatch",
    "close_cluster",
    "connect",
    "connected",
    "distributed_module",
    "task_key",
]


def distributed_module() -> Any:
    """The ``distributed`` package, or ``MissingPackageError`` naming the extra to install."""
    return optional_import("distributed", "--cluster", "dask")


def connect(address: str, timeout: float = 30.0) -> tuple[Any, Any | None]:
    """A client for ``address`` and the cluster it started (None when it joined a running one).

    ``local:N`` starts a ``LocalCluster`` of N worker processes of one thread each (closed with the client);
    anything else (``tcp://host:8786``, ``host:8786``) is a running scheduler's address.
    """
    distributed = distributed_module()
    cluster = None
    if address.startswith("local:"):
        try:
            workers = int(address.removeprefix("local:"))
        except ValueError:
            workers = 0
        if workers < 1:
            raise UsageError(f"--cluster local:N takes a number of workers of 1 or more, not {address!r}")
        # no dashboard; the scheduler's HTTP server (health, metrics) on a free local port: on 8787, its
        # default, it warned on standard error whenever another cluster or dashboard held that port. The
        # worker processes log nothing below CRITICAL: they share our standard error, and a stopped run's
        # cancelled tasks made each print a WARNING ('ended with CancelledError') even under -q; the
        # command says itself what went wrong (a worker lost, a task retried)
        cluster = distributed.LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
            silence_logs=logging.CRITICAL,
            preload=["sudoku_cp.batch.quiet_worker"],  # Ctrl-C is the command's to answer, not theirs
        )
        # the scheduler, here in this process, adds a garbage collector callback that logs (at INFO, never
        # shown): a SIGTERM that came while it ran printed 'Exception ignored in: GCDiagnosis._gc_callback'
        with contextlib.suppress(Exception):
            from distributed.gc import disable_gc_diagnosis

            disable_gc_diagnosis(force=True)
        address = cluster.scheduler_address
    else:
        _check_reachable(address)
    try:
        client = distributed.Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        if cluster is not None:
            close_cluster(cluster)
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    return client, cluster


#: How long a worker of a local cluster may take to stop before it is terminated (Dask's default, 5 s,
#: waits for the task it is running: a chunk of a stopped batch).
STOP_SECONDS = 0.5


async def _stop_workers(workers: list[Any], seconds: float) -> None:
    await asyncio.gather(*(worker.close(timeout=seconds) for worker in workers), return_exceptions=True)


def close_cluster(cluster: Any, seconds: float = STOP_SECONDS) -> None:
    """Close a cluster ``connect`` started, its workers first, each given ``seconds`` to stop before its
    process is terminated: closing a ``LocalCluster`` waits up to 4 s for each worker's running task, so
    a run stopped by SIGTERM took 5 s to end. Its answers are no longer wanted."""
    workers = list(getattr(cluster, "workers", {}).values())
    if workers and hasattr(cluster, "sync"):
        with contextlib.suppress(Exception):  # closing below still closes what is left
            cluster.sync(_stop_workers, workers, seconds)
    cluster.close()


#: How long a TCP scheduler address may refuse connections (a scheduler just started) before it is an error.
REACH_SECONDS = 5.0


def _check_reachable(address: str) -> None:
    """Fail within ``REACH_SECONDS`` when nothing listens at a TCP scheduler address (Dask itself would
    retry for its whole connection timeout, 30 s, before saying so)."""
    host, _, port = address.removeprefix("tcp://").rpartition(":")
    if "://" in host or not port.isdigit():
        return  # another protocol, or an address Dask resolves itself: let it try
    deadline = time.monotonic() + REACH_SECONDS
    while True:
        try:
            socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)), timeout=10).close()
            return
        except OSError as exc:
            if time.monotonic() >= deadline:
                raise ClusterError(
                    f"cannot reach the Dask scheduler at {address}: {exc.strerror or exc}"
                ) from None
            time.sleep(0.1)


def connected(client: Any) -> bool:
    """True while ``client`` talks to its scheduler; calls on one that lost it wait for a reconnection."""
    return getattr(client, "status", None) == "running"


#: How often a wait for a task's answer looks whether the client still talks to its scheduler.
POLL_SECONDS = 0.5

#: Per worker process: the configurations whose state is built (initializer arguments), and a lock that
#: runs one task at a time (a worker with several threads would otherwise share one backend).
_BUILT: set[bytes] = set()
_LOCK = threading.Lock()


def _run(
    handler: Callable[[Any], Any], initializer: Callable[..., Any] | None, initargs: tuple, task: Any
) -> Any:
    """What a Dask worker runs for one task: build this process's state once, then handle the task."""
    with _LOCK:
        key = pickle.dumps((initializer, initargs))  # configurations hold dicts: compare them pickled
        if initializer is not None and key not in _BUILT:
            initializer(*initargs)
            _BUILT.clear()  # the state is one configuration's: a new one replaces it
            _BUILT.add(key)
        return handler(task)


def task_key(client: Any) -> str:
    """A fresh key for a task of ``client``: named for sudoku-cp and the client, so a ``ClusterWatch``
    counts this run's tasks only, on a cluster that other runs share."""
    return f"sudoku-cp-{client.id}-{uuid.uuid4().hex}"


class ClusterWatch:
    """Counts what a cluster lost while a run used it: workers gone unexpectedly, and this client's tasks
    they were running or held (Dask computes those again elsewhere: retried).

    It listens to the scheduler's ``remove-worker`` events (``Client.subscribe_topic``); ``close`` stops.
    """

    TOPIC = "all"

    def __init__(self, client: Any) -> None:
        self.client = client
        self.prefix = f"sudoku-cp-{client.id}-"
        self.workers_lost = 0
        self.tasks_retried = 0
        self._lock = threading.Lock()
        client.subscribe_topic(self.TOPIC, self._event)

    def _event(self, event: tuple[float, Any]) -> None:
        message = event[1]
        if not isinstance(message, dict) or message.get("action") != "remove-worker":
            return
        keys = {*message.get("processing-tasks", ()), *message.get("lost-computed-tasks", ())}
        ours = sum(1 for key in keys if str(key).startswith(self.prefix))
        with self._lock:
            self.workers_lost += not message.get("expected", False)
            self.tasks_retried += ours

    def close(self) -> None:
        """Stop listening (a client that lost its scheduler is left alone)."""
        if connected(self.client):
            with contextlib.suppress(Exception):
                self.client.unsubscribe_topic(self.TOPIC)


class ClusterPool:
    """``handler`` mapped over tasks on a Dask cluster, results in input order; ``OrderedPool``'s contract.

    ``client`` is a ``distributed.Client``. ``handler``, ``initializer`` and ``initargs`` must pickle
    (module-level functions, plain values). ``ahead`` bounds the tasks submitted past
    the oldest unanswered one (default: four per worker thread, at least 8).
    """

    def __init__(
        self,
        client: Any,
        handler: Callable[[Any], Any],
        initializer: Callable[..., Any] | None = None,
        initargs: tuple = (),
        *,
        ahead: int | None = None,
    ) -> None:
        self.client = client
        self.handler = handler
        self.initializer = initializer
        self.initargs = initargs
        if ahead is None:
            threads = sum(client.nthreads().values()) or 1
            ahead = max(8, 4 * threads)
        self.ahead = ahead
        self._pending: collections.deque[Any] = collections.deque()

    @property
    def workers(self) -> int:
        """Workers the scheduler knows now."""
        return len(self.client.nthreads())  # asked now (scheduler_info() is refreshed every few seconds)

    def map(self, tasks: Iterable[Any], local: Callable[[Any], Any] | None = None) -> Iterator[Any]:
        """Yield ``handler(task)`` for every task, in the order of ``tasks``; ``ahead`` in flight at most.

        ``local`` is accepted for ``OrderedPool``'s signature and not used: the cluster's workers are
        already running. A task's exception is raised here, in order; a lost cluster is a ``ClusterError``.
        """
        distributed = distributed_module()
        source = iter(tasks)
        pending = self._pending
        try:
            for task in source:
                pending.append(self._submit(task))
                if len(pending) >= self.ahead:
                    yield self._result(pending.popleft(), distributed)
            while pending:
                yield self._result(pending.popleft(), distributed)
        finally:
            self.cancel()

    def _submit(self, task: Any) -> Any:
        try:
            return self.client.submit(
                _run,
                self.handler,
                self.initializer,
                self.initargs,
                task,
                key=task_key(self.client),
                pure=False,
                retries=0,
            )
        except Exception as exc:  # a closed client or a lost scheduler
            raise ClusterError(f"the Dask scheduler took no more tasks: {exc}") from None

    def _result(self, future: Any, distributed: Any) -> Any:
        try:
            return self._wait(future)
        except distributed.KilledWorker as exc:
            raise ClusterError(f"a task killed the workers that ran it: {exc}") from None
        except (distributed.comm.CommClosedError, OSError, TimeoutError) as exc:
            if future.status == "error":
                raise  # the task's own
            raise ClusterError(f"the Dask scheduler was lost: {exc or type(exc).__name__}") from None
        except Exception as exc:
            if "CancelledError" in type(exc).__name__:  # FutureCancelledError: the connection was lost
                raise ClusterError(f"the Dask scheduler was lost: {str(exc).splitlines()[0]}") from None
            raise

    def _wait(self, future: Any) -> Any:
        """``future``'s answer, or a ``ClusterError`` soon after the client lost its scheduler: a task
        submitted once the client knew is never cancelled, and was waited for until it gave up (30 s).
        The wait is on the future's done callback, in slices of ``POLL_SECONDS``: ``Future.result`` with a
        timeout, asked again and again, took an answer that came as a slice ended for a timeout, and with
        short slices failed inside Dask (its ``sync`` left the result unset)."""
        done = threading.Event()
        future.add_done_callback(lambda _: done.set())
        while not done.wait(POLL_SECONDS):
            if not connected(self.client):
                raise ClusterError("the Dask scheduler was lost: no connection")
        return future.result()

    def cancel(self) -> None:
        """Drop the tasks still in flight (the batch stopped early, or ended)."""
        if self._pending:
            if connected(self.client):  # a client that lost its scheduler would wait for it to come back
                with contextlib.suppress(Exception):
                    self.client.cancel(list(self._pending))
            self._pending.clear()

    def __enter__(self) -> ClusterPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.cancel()
