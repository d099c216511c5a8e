"""Random streams: one root ``SeedSequence`` per run, one stream per chunk, one per trial.

The engine owns randomness (ARCHITECTURE rule 2). Chunk ``i`` of a run with seed ``s`` gets
the key ``SeedSequence(s, spawn_key=(i,)).generate_state(4, uint64)``, exactly what
``SeedSequence(s).spawn(i + 1)[i]`` would give. Inside a chunk every trial starts a fresh
xoshiro256+ generator whose state is the chunk key mixed with the trial's offset by the
splitmix64 finaliser. So:

- results do not depend on the thread count, the backend or the order chunks finish in;
- trial ``k`` can be replayed on its own (``replay``) from ``(seed, k)`` alone;
- two rule variants run with the same seed start every trial from the same stream (common
  random numbers), and stay in step as long as they draw the same sequence of numbers.

xoshiro256+ (Blackman and Vigna) is inlined because numpy's generators cost 2.7 times more per
draw from numba (PERFORMANCE-NOTES lesson 4). The generator state is a 4-element uint64 array
local to the kernel call, so threads never share a cache line.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit

__all__ = [
    "CHUNK",
    "chunk_key",
    "high_bits",
    "index32",
    "next_double",
    "seed_trial",
    "split_bits",
    "trial_seed",
    "trial_state",
    "xoshiro",
    "xoshiro_bits",
]

#: Trials per chunk. Fixed: changing it changes every result for a given seed.
CHUNK = 1 << 16

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S17 = np.uint64(17)
_S45 = np.uint64(45)
_S19 = np.uint64(19)
_S11 = np.uint64(11)
_S32 = np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)
_TO_DOUBLE = 1.0 / 9007199254740992.0  # 2**-53


def chunk_key(seed: int, chunk: int) -> np.ndarray:
    """The 4-word key of chunk ``chunk`` of a run seeded with ``seed``."""
    return np.random.SeedSequence(int(seed), spawn_key=(int(chunk),)).generate_state(4, np.uint64)


@jit(inline="always")
def _mix(z):
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@jit(inline="always")
def trial_seed(k0, k1, k2, k3, offset):
    """Generator state ``(s0, s1, s2, s3)`` of trial ``offset`` within the chunk key ``k0..k3``.

    Scalars in, scalars out: kernels keep the state in registers (an array argument would
    bring reference counting into the hot loop, PERFORMANCE-NOTES lesson 3).
    """
    step = np.uint64(offset + 1) * _GOLDEN
    s0 = _mix(k0 + step)
    s1 = _mix(k1 + step)
    s2 = _mix(k2 + step)
    s3 = _mix(k3 + step)
    if s0 == 0 and s1 == 0 and s2 == 0 and s3 == 0:
        s0 = _GOLDEN
    return s0, s1, s2, s3


@jit(inline="always")
def xoshiro_bits(s0, s1, s2, s3):
    """One xoshiro256+ step: ``(s0, s1, s2, s3, x)`` with ``x`` the 64-bit output, of which
    ``xoshiro`` uses the top 53 bits."""
    result = s0 + s3
    t = s1 << _S17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = (s3 << _S45) | (s3 >> _S19)
    return s0, s1, s2, s3, result


@jit(inline="always")
def xoshiro(s0, s1, s2, s3):
    """One xoshiro256+ step: ``(s0, s1, s2, s3, u)`` with ``u`` uniform on [0, 1)."""
    s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
    return s0, s1, s2, s3, np.float64(x >> _S11) * _TO_DOUBLE


@jit(inline="always")
def index32(bits, n):
    """An index on ``0 .. n - 1`` from 32 random ``bits`` (uint64 below 2^32):
    ``(bits * n) >> 32``. Each index gets ``floor`` or ``ceil`` of ``2^32 / n`` of the bit
    patterns, so for ``n <= 10000`` outcomes it is uniform to within 2.4 parts in 10^6."""
    return (bits * n) >> _S32


@jit(inline="always")
def split_bits(x, n):
    """One generator output ``x`` as two draws: an index on ``0 .. n - 1`` from its low 32
    bits (``index32``), and its high 32 bits for a second index.

    An attack's roll and its first damage group share one generator step this way. Integer
    multiplies keep the step from the generator to the damage short, and a kernel waits for
    that step whenever it mispredicts whether a wound needs work: the float route (the index
    and the fraction left of a 53-bit uniform) took three times as long. The roll tables have
    7776 (HERO) or 10000 (Interlock) outcomes; the top bits of the low half decide the index,
    xoshiro256+'s weak lowest bits only at the edges between two.
    """
    return index32(x & _LOW32, n), x >> _S32


@jit(inline="always")
def high_bits(x):
    """The high 32 bits of a generator output ``x``, the bits a further damage group reads
    (``index32``)."""
    return x >> _S32


@jit(inline="always")
def seed_trial(state, key, offset):
    """Set ``state`` (uint64[4]) to the generator of trial ``offset`` within the chunk ``key``."""
    state[0], state[1], state[2], state[3] = trial_seed(key[0], key[1], key[2], key[3], offset)


@jit(inline="always")
def next_double(state):
    """Next uniform double in [0, 1) from xoshiro256+ (``state`` uint64[4] updated in place)."""
    state[0], state[1], state[2], state[3], u = xoshiro(state[0], state[1], state[2], state[3])
    return u


def trial_state(seed: int, trial: int) -> np.ndarray:
    """The generator state trial ``trial`` (0-based, over the whole run) starts from."""
    state = np.empty(4, np.uint64)
    seed_trial(state, chunk_key(seed, trial // CHUNK), trial % CHUNK)
    return state
