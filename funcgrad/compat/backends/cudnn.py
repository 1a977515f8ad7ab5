"""torch.backends.cudnn: settable flags (no effect: funcgrad does not use cuDNN)."""

benchmark = False
deterministic = False
enabled = True
allow_tf32 = True


def is_available():
    return False


def version():
    return None
