import numpy as np
from numba import njit, types
from game import SIG_GEN, SIG_APP, SIG_KEY
import core

SIG = types.int64(types.int8[::1], types.uint64[::1], types.FunctionType(SIG_GEN), types.FunctionType(SIG_APP),
                  types.FunctionType(SIG_KEY))
dfs_fc = njit(SIG, cache=True)(core.dfs_generic.py_func)
