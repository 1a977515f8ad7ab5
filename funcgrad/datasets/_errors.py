"""The one error the dataset readers raise."""


class DatasetError(ValueError):
    """A dataset folder or file is missing, incomplete or not in the expected format.

    The message names the file and what was expected, so the command line can
    show it as-is.
    """
