"""Fixtures shared by the test folders."""

import builtins

import pytest


@pytest.fixture
def without_training_extra(monkeypatch):
    """Imports of jax and optax fail, as where the optional [train] extra is not installed."""
    real = builtins.__import__

    def no_jax(name, *args, **kw):
        if name.split(".")[0] in ("jax", "optax"):
            raise ImportError(name)
        return real(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", no_jax)
