"""Before the tests: compile the kernels once, engine and policies in two processes at the same time.

Without this every pytest-xdist worker compiles the same kernels on an empty
cache (about two minutes each, at once); with it they load them from the cache.
With a warm cache it costs about two seconds.
"""


def pytest_sessionstart(session):
    if hasattr(session.config, "workerinput"):  # an xdist worker: the controller has compiled already
        return
    from mjsim.sim.warmup import compile_in_parallel

    compile_in_parallel()
