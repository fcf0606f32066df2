"""The status and counter codes of every kernel's search, defined once.

A kernel's generated loop (loop_template.py) writes them, ``KernelSearch`` and
``PlayoutSearch`` read them; a kernel imports them from here (its generated loop finds
them in the kernel's names).  numba compiles them in as constants.
"""

# what search_init and search_run return, and ctr[C_STATUS] holds
ST_RUNNING, ST_WON, ST_LOST, ST_MEMORY, ST_PAUSED, ST_STACK = 0, 1, 2, 3, 4, 5

# the search counters ``ctr``: nodes made, the current depth, the status
C_NODES, C_DEPTH, C_STATUS = 0, 1, 2
CTR_LEN = 3
# a ring-and-checkpoint stack (Loop.ring) also keeps the lowest level whose ring row is valid
C_LO = 3
RING_CTR_LEN = 4
