from __future__ import annotations

import queue
import threading
from concurrent.futures import Future
from typing import Any, Callable, TypeVar

T = TypeVar("T")

_Job = tuple["Future[Any]", Callable[..., Any], tuple[Any, ...]]


class Workers:
    """Threads that run sync handlers, started as they are needed, up to a limit.

    concurrent.futures.ThreadPoolExecutor would do, but the interpreter joins
    its threads at exit: a handler still blocked when SIGTERM arrives would
    hold up the exit. These are daemon threads, and the hook waits for its
    in-flight handlers itself when stdin closes.
    """

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        # One permit per thread waiting for a job, so a submit knows whether
        # it needs a new thread.
        self._idle = threading.Semaphore(0)
        self._lock = threading.Lock()
        self._started = 0

    def submit(self, fn: Callable[..., T], *args: Any) -> Future[T]:
        future: Future[T] = Future()
        self._jobs.put((future, fn, args))
        if not self._idle.acquire(blocking=False):
            with self._lock:
                if self._started < self._limit:
                    self._started += 1
                    threading.Thread(
                        target=self._work, name=f"hookwire-{self._started}", daemon=True
                    ).start()
        return future

    def _work(self) -> None:
        while True:
            future, fn, args = self._jobs.get()
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(fn(*args))
                except BaseException as e:
                    future.set_exception(e)
            del future, fn, args  # let go of the job before waiting for the next
            self._idle.release()
