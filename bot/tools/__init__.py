"""The offline tools of ``python -m bot``: the bank's ``db`` commands, ``replay`` and ``simulate``."""
