"""Whether answers are right: backends held against each other (`verify`), another program's
output read and judged (`answers`), a user's program run (`external`), boards drawn until one
breaks a solver (`fuzz`).

`nq.check(problem, answers)` is the API's call, and `nqueens_cp.check` this package: once the
package is imported, Python makes `nqueens_cp.check` name it. So the package, called, is that
call (`answers.check`), whichever was imported first.
"""

from __future__ import annotations

import sys
import types
from typing import Any


class _Package(types.ModuleType):
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from .answers import check

        return check(*args, **kwargs)


sys.modules[__name__].__class__ = _Package
