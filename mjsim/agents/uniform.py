"""The ``random`` policy: a uniformly random legal action (the baseline every other policy is timed against).

It is the baseline that ignores everything — shape, safety, value and wild tiles alike: it throws a
ghost (C-J1) as readily as any other tile, and passes (换三张) and declares void (定缺) at random.
"""

from mjsim.agents.base import Policy, new_actions
from mjsim.agents.legal import uniform_legal
from mjsim.sim.borrowing import kernel


@kernel
def random_kernel(legal, rng, out):
    """Fill ``out`` with a uniform legal action per row."""
    for i in range(out.size):
        out[i] = uniform_legal(legal, i, rng)


def act(obs, legal, rng, params, rules):
    """Uniform legal actions for the rows of ``obs``."""
    out = new_actions(obs)
    random_kernel(legal, rng, out)
    return out


POLICY = Policy(name="random", act=act, default_params={}, doc=__doc__.split("\n\n")[0], setup=act)
