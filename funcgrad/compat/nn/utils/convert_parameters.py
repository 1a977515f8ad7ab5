"""torch.nn.utils.convert_parameters: parameters <-> one vector."""

from . import parameters_to_vector, vector_to_parameters  # noqa: F401

__all__ = ["parameters_to_vector", "vector_to_parameters"]
