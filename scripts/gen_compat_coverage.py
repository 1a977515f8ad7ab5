"""Write docs/compat-coverage.md: which public names of torch 2.13 funcgrad.compat has.

Run where PyTorch is installed (it is read, never imported by funcgrad):

    PYTHONPATH=$PWD /work/venvs/torch/bin/python scripts/gen_compat_coverage.py

For each namespace below, the public names are ``__all__`` plus every name of
``dir()`` not starting with ``_`` that torch defines (its submodules, its
functions, classes and constants; names a module merely imports -- ``math``,
``typing.Optional``, the ``torch`` module itself, ``torch.Tensor`` re-exported
for annotations -- are left out).  For ``torch.Tensor``, every public attribute
of the class: methods, properties and each in-place ``_`` variant.

Each name is then *present* (``funcgrad.compat`` has an attribute of that name
at the same place; for Tensor, on the class or on an instance), *handled
elsewhere* (``torch.distributed``: its own package, funcgrad/compat/distributed),
*not applicable* (matched by a row of :data:`NOT_APPLICABLE` below, whose reason
the page prints), or *missing*.

The script also writes tests/compat/data/compat_coverage.json (the names the
page calls present, per namespace), which tests/compat/test_coverage_names.py
checks against funcgrad.compat without torch.  ``--check`` exits 1 if either
file is out of date.
"""

from __future__ import annotations

import fnmatch
import importlib
import json
import sys
import types
import typing
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "compat-coverage.md"
DATA = ROOT / "tests" / "compat" / "data" / "compat_coverage.json"
sys.path.insert(0, str(ROOT))

NAMESPACES = [
    "torch", "torch.Tensor", "torch.nn", "torch.nn.functional", "torch.nn.init", "torch.nn.utils",
    "torch.linalg", "torch.fft", "torch.special", "torch.autograd", "torch.func", "torch.optim",
    "torch.optim.lr_scheduler", "torch.utils.data", "torch.serialization", "torch.distributions",
    "torch.testing", "torch.backends", "torch.accelerator", "torch.cuda",
]

# names another piece of work covers: (namespace, name pattern) -> where
HANDLED_ELSEWHERE = [
    ("torch", "OutOfMemoryError", "exception-classes work (item 2 of issue 22)"),
    ("torch", "distributed", "torch.distributed work (funcgrad/compat/distributed)"),
    ("torch.utils.data", "distributed", "torch.distributed work (funcgrad/compat/distributed)"),
    ("torch.utils.data", "DistributedSampler", "torch.distributed work (funcgrad/compat/distributed)"),
]

_TS = "TorchScript internals (funcgrad has no TorchScript; torch.jit says so when called)"
_Q = "quantization backend (quantized dtypes and kernels; numpy has no quantized types)"
_KERNEL = "backend-specific kernel entry point (cuDNN / MIOpen / oneDNN / FBGEMM); the generic op is what compat gives"
_ATEN = "ATen-internal op (returns its backward's saved statistics); the public nn.functional form is provided"
_DISPATCH = "C++ dispatcher / operator registration / __torch_function__ machinery (compat has no ATen dispatcher)"
_STORAGE = "legacy Storage classes (a compat tensor's storage is its numpy/cupy buffer, not a Storage object)"
_SYM = "symbolic shapes (torch.compile / torch.export internals)"
_DTYPE = "dtype numpy (and cupy) has no type for"
_DEVICE = "device type funcgrad has no backend for (XPU / MTIA / MAIA / IPU / XLA / Vulkan / MPS)"
_BUILD = "build-configuration flag of libtorch"
_DOC = "docstring template (not an API)"
_TYPING = "typing helper (TorchScript annotations)"
_CUDA = "CUDA runtime feature with no cupy/CPU counterpart that can behave the same (streams, graphs, allocator, NVTX)"
_NESTED = "nested (ragged) tensors: no numpy representation"
_SPARSE_BLOCK = "block / compressed-column sparse layouts (compat's sparse support is COO and CSR on scipy.sparse)"
_CAPTURE = "graph capture / export / packaging (torch.fx, torch.export, torch.package, torch._dynamo)"
_DATAPIPE = "torchdata DataPipes (deprecated in torch 2.x and removed from torchdata)"

# (namespace pattern, name pattern, reason); the first row that matches wins
NOT_APPLICABLE = [
    # --- torch ---------------------------------------------------------------
    ("torch", "*Type", _TS), ("torch", "Argument", _TS), ("torch", "ArgumentSpec", _TS), ("torch", "Block", _TS),
    ("torch", "CallStack", _TS), ("torch", "Code", _TS), ("torch", "CompilationUnit", _TS),
    ("torch", "CompleteArgumentSpec", _TS), ("torch", "ConcreteModuleType*", _TS), ("torch", "DeepCopyMemoTable", _TS),
    ("torch", "ErrorReport", _TS), ("torch", "ExecutionPlan", _TS), ("torch", "FunctionSchema", _TS),
    ("torch", "Gradient", _TS), ("torch", "Graph", _TS), ("torch", "GraphExecutorState", _TS),
    ("torch", "IODescriptor", _TS), ("torch", "InferredType", _TS), ("torch", "JITException", _TS),
    ("torch", "LiteScriptModule", _TS), ("torch", "*Logger*", _TS), ("torch", "Node", _TS), ("torch", "Script*", _TS),
    ("torch", "StaticModule", _TS), ("torch", "TracingState", _TS), ("torch", "Type", _TS), ("torch", "Use", _TS),
    ("torch", "Value", _TS), ("torch", "AliasDb", _TS), ("torch", "import_ir_module*", _TS), ("torch", "parse_ir", _TS),
    ("torch", "parse_schema", _TS), ("torch", "parse_type_comment", _TS), ("torch", "merge_type_from_type_comment", _TS),
    ("torch", "unify_type_list", _TS), ("torch", "AggregationType", _TS), ("torch", "AVG", _TS), ("torch", "SUM", _TS),
    ("torch", "fork", _TS), ("torch", "wait", _TS), ("torch", "Future", _TS), ("torch", "futures", _TS),
    ("torch", "Capsule", _TS), ("torch", "BufferDict", _TS), ("torch", "ModuleDict", _TS),
    ("torch", "ParameterDict", _TS), ("torch", "PyTorchFile*", "PyTorch's C++ zip reader/writer (compat's torch.save "
                                                               "writes the same format with Python's zipfile)"),
    ("torch", "*SerializationStorageContext", _TS), ("torch", "DeserializationStorageContext", _TS),
    ("torch", "ThroughputBenchmark", _TS), ("torch", "Benchmark*", _TS),
    ("torch", "DispatchKey*", _DISPATCH), ("torch", "ExcludeDispatchKeyGuard", _DISPATCH),
    ("torch", "DisableTorchFunction*", _DISPATCH), ("torch", "Tag", _DISPATCH), ("torch", "OperatorInfo", _DISPATCH),
    ("torch", "PRIVATE_OPS", _DISPATCH), ("torch", "library", _DISPATCH), ("torch", "ops", _DISPATCH),
    ("torch", "classes", _DISPATCH), ("torch", "overrides", _DISPATCH), ("torch", "cpp", _DISPATCH),
    ("torch", "*Storage", _STORAGE), ("torch", "StorageBase", _STORAGE), ("torch", "storage", _STORAGE),
    ("torch", "is_storage", _STORAGE), ("torch", "from_file", _STORAGE),
    ("torch", "Q*", _Q), ("torch", "q*", _Q), ("torch", "quantize*", _Q), ("torch", "quantized_*", _Q),
    ("torch", "dequantize", _Q), ("torch", "fake_quantize_*", _Q), ("torch", "fused_moving_avg_obs_fake_quant", _Q),
    ("torch", "choose_qparams_optimized", _Q), ("torch", "per_channel_*", _Q), ("torch", "per_tensor_*", _Q),
    ("torch", "int_repr", _Q), ("torch", "ao", _Q), ("torch", "quantization", _Q), ("torch", "empty_quantized", _Q),
    ("torch", "cudnn_*", _KERNEL), ("torch", "miopen_*", _KERNEL), ("torch", "mkldnn_*", _KERNEL),
    ("torch", "fbgemm_*", _KERNEL), ("torch", "cudnn_is_acceptable", _KERNEL),
    ("torch", "native_*", _ATEN), ("torch", "batch_norm_*", "SyncBatchNorm's CUDA statistics kernels"),
    ("torch", "sym_*", _SYM), ("torch", "Sym*", _SYM),
    ("torch", "float8_*", _DTYPE), ("torch", "float4_*", _DTYPE), ("torch", "bits*", _DTYPE), ("torch", "bit", _DTYPE),
    ("torch", "int[1-7]", _DTYPE), ("torch", "uint[1-7]", _DTYPE), ("torch", "complex32", _DTYPE),
    ("torch", "chalf", _DTYPE),
    ("torch", "xpu", _DEVICE), ("torch", "mtia", _DEVICE), ("torch", "mps", _DEVICE),
    ("torch", "*ipu*", _DEVICE), ("torch", "*xla*", _DEVICE), ("torch", "is_vulkan_available", _DEVICE),
    ("torch", "TYPE_CHECKING", "typing flag"), ("torch", "USE_*", _BUILD), ("torch", "compiled_with_cxx11_abi", _BUILD),
    ("torch", "nested", _NESTED), ("torch", "jagged", _NESTED),
    ("torch", "fx", _CAPTURE), ("torch", "export", _CAPTURE), ("torch", "package", _CAPTURE),
    ("torch", "compiler", _CAPTURE),
    ("torch", "sparse_bs?", _SPARSE_BLOCK), ("torch", "sparse_bs?_tensor", _SPARSE_BLOCK),
    ("torch", "sparse_csc", _SPARSE_BLOCK), ("torch", "sparse_csc_tensor", _SPARSE_BLOCK),
    ("torch", "hub", "downloads models from the network (funcgrad runs offline)"),
    ("torch", "monitor", "libtorch's C++ event counters"),
    ("torch", "profiler", "the Kineto profiler (funcgrad's has no C++ profiler to attach)"),
    ("torch", "autocast_*_nesting", "autocast's C++ cache bookkeeping"),
    ("torch", "prepare_multiprocessing_environment", "libtorch shared-memory manager setup"),
    ("torch", "profiler_allow_cudagraph_cupti_lazy_reinit_cuda12", _CUDA),
    ("torch", "thread_safe_generator", "libtorch's per-thread generator guard"),
    ("torch", "classproperty", "internal decorator"), ("torch", "torch_version", "internal module (torch.__version__ is present)"),
    ("torch", "types", "internal typing module"), ("torch", "return_types", "C++ structseq classes (compat returns namedtuples)"),
    ("torch", "get_file_path", "path of a libtorch file"),
    ("torch", "segment_reduce", "prototype op, documented as experimental and unused by public APIs"),
    ("torch", "hash_tensor", "prototype op"),
    ("torch", "ccol_indices_copy", _SPARSE_BLOCK), ("torch", "row_indices_copy", _SPARSE_BLOCK),
    ("torch", "conv_tbc", "Fairseq-era CUDA-oriented op (time-batch-channel conv); F.conv1d covers it"),
    ("torch", "grid_sampler_[23]d", "ATen dispatch targets of torch.grid_sampler (which is present)"),
    ("torch", "embedding_bag", _ATEN), ("torch", "slice_inverse", "functionalization internal op (torch.compile)"),
    ("torch", "lstm", "undocumented ATen flat-weight RNN kernel behind nn.LSTM (the module and lstm_cell are present)"),
    ("torch", "gru", "undocumented ATen flat-weight RNN kernel behind nn.GRU (the module and gru_cell are present)"),
    ("torch", "rnn_tanh", "undocumented ATen flat-weight RNN kernel behind nn.RNN (the module and the cells are present)"),
    ("torch", "rnn_relu", "undocumented ATen flat-weight RNN kernel behind nn.RNN (the module and the cells are present)"),
    ("torch", "FatalError", "libtorch's internal-assertion error"),
    ("torch", "AcceleratorError", "raised by CUDA kernels only (a device-side error)"),
    ("torch", "Event", _CUDA), ("torch", "Stream", _CUDA),
    ("torch", "functional", "internal module (its functions are torch.* names, listed here)"),
    ("torch", "masked", "prototype MaskedTensor"), ("torch", "FileCheck", _TS),
    # --- torch.Tensor ----------------------------------------------------------
    ("torch.Tensor", "q_*", _Q), ("torch.Tensor", "qscheme", _Q), ("torch.Tensor", "int_repr", _Q),
    ("torch.Tensor", "dequantize", _Q),
    ("torch.Tensor", "ipu", _DEVICE), ("torch.Tensor", "xpu", _DEVICE), ("torch.Tensor", "mtia", _DEVICE),
    ("torch.Tensor", "is_ipu", _DEVICE), ("torch.Tensor", "is_xla", _DEVICE), ("torch.Tensor", "is_xpu", _DEVICE),
    ("torch.Tensor", "is_maia", _DEVICE), ("torch.Tensor", "is_mtia", _DEVICE), ("torch.Tensor", "is_vulkan", _DEVICE),
    ("torch.Tensor", "is_mps", _DEVICE),
    ("torch.Tensor", "to_mkldnn", _KERNEL), ("torch.Tensor", "is_mkldnn", _KERNEL),
    ("torch.Tensor", "record_stream", _CUDA),
    ("torch.Tensor", "storage", _STORAGE), ("torch.Tensor", "untyped_storage", _STORAGE),
    ("torch.Tensor", "storage_type", _STORAGE), ("torch.Tensor", "is_set_to", _STORAGE),
    ("torch.Tensor", "is_nested", _NESTED), ("torch.Tensor", "to_padded_tensor", _NESTED),
    ("torch.Tensor", "to_sparse_bs?", _SPARSE_BLOCK), ("torch.Tensor", "to_sparse_csc", _SPARSE_BLOCK),
    ("torch.Tensor", "ccol_indices", _SPARSE_BLOCK), ("torch.Tensor", "row_indices", _SPARSE_BLOCK),
    ("torch.Tensor", "chalf", _DTYPE),
    ("torch.Tensor", "map_", "TH-era CPU-only callback method (PyTorch documents it as not for autograd)"),
    ("torch.Tensor", "map2_", "TH-era CPU-only callback method (PyTorch documents it as not for autograd)"),
    ("torch.Tensor", "apply_", "TH-era CPU-only callback method (PyTorch documents it as not for autograd)"),
    ("torch.Tensor", "reinforce", "removed stochastic-function API (it only raises in PyTorch)"),
    ("torch.Tensor", "module_load", "nn.Module.load_state_dict's __torch_function__ hook for tensor subclasses"),
    ("torch.Tensor", "as_subclass", _DISPATCH), ("torch.Tensor", "hash_tensor", "prototype op"),
    ("torch.Tensor", "grad_dtype", "prototype attribute"),
    ("torch.Tensor", "index", "first-class dimensions (functorch.dim)"),
    ("torch.Tensor", "name", "undocumented attribute (None on every tensor)"),
    ("torch.Tensor", "slice_inverse", "functionalization internal op (torch.compile)"),
    ("torch.Tensor", "symeig", "removed in PyTorch (it only raises there)"),
    ("torch.Tensor", "eig", "removed in PyTorch (it only raises there)"),
    ("torch.Tensor", "lstsq", "removed in PyTorch (it only raises there)"),
    ("torch.Tensor", "solve", "removed in PyTorch (it only raises there)"),
    ("torch", "symeig", "removed in PyTorch (it only raises there)"), ("torch", "eig", "removed in PyTorch (it only raises there)"),
    ("torch", "lstsq", "removed in PyTorch (it only raises there)"), ("torch", "solve", "removed in PyTorch (it only raises there)"),
    ("torch", "matrix_rank", "removed in PyTorch (it only raises there)"),
    # --- torch.nn / functional / init / utils ------------------------------------
    ("torch.nn", "intrinsic", _Q), ("torch.nn", "qat", _Q), ("torch.nn", "quantizable", _Q), ("torch.nn", "quantized", _Q),
    ("torch.nn", "SyncBatchNorm", "torch.distributed work (funcgrad/compat/distributed)"),
    ("torch.nn", "common_types", _TYPING), ("torch.nn", "factory_kwargs", "internal helper"),
    ("torch.nn", "Container", "deprecated base class (nn.Module replaces it)"),
    ("torch.nn.functional", "BroadcastingList*", _TYPING), ("torch.nn.functional", "boolean_dispatch", _TS),
    ("torch.nn.functional", "*_notes", _DOC), ("torch.nn.functional", "TYPE_CHECKING", "typing flag"),
    ("torch.nn.functional", "*torch_function*", _DISPATCH), ("torch.nn.functional", "assert_int_or_pair", "internal helper"),
    ("torch.nn.functional", "conv_tbc", "Fairseq-era CUDA-oriented op (time-batch-channel conv); F.conv1d covers it"),
    ("torch.nn.functional", "scaled_mm", "float8 scaled matmul (CUDA-only kernel, float8 dtypes)"),
    ("torch.nn.functional", "scaled_grouped_mm", "float8 scaled matmul (CUDA-only kernel, float8 dtypes)"),
    ("torch.nn.functional", "ScalingType", "float8 scaled matmul (CUDA-only kernel, float8 dtypes)"),
    ("torch.nn.functional", "SwizzleType", "float8 scaled matmul (CUDA-only kernel, float8 dtypes)"),
    ("torch.nn.functional", "native_channel_shuffle", _ATEN),
    ("torch.nn.utils", "fusion", "internal module (its functions are listed by name)"),
    ("torch.nn.utils", "memory_format", "internal module (its functions are listed by name)"),
    ("torch.nn.utils", "convert_conv*_weight_memory_format", "memory formats: numpy arrays have no channels_last layout"),
    # --- linalg / fft / special --------------------------------------------------
    ("torch.linalg", "common_notes", _DOC), ("torch.fft", "*common_args", _DOC), ("torch.special", "*common*", _DOC),
    # --- autograd / func ---------------------------------------------------------
    ("torch.autograd", "Profiler*", "the Kineto profiler (funcgrad's has no C++ profiler to attach)"),
    ("torch.autograd", "DeviceType", "the Kineto profiler (funcgrad's has no C++ profiler to attach)"),
    ("torch.autograd", "kineto_available", "the Kineto profiler (funcgrad's has no C++ profiler to attach)"),
    ("torch.autograd", "profiler*", "the Kineto profiler (funcgrad's has no C++ profiler to attach)"),
    ("torch.autograd", "*torch_function*", _DISPATCH),
    ("torch.autograd", "is_view_replay_enabled", "functionalization internals (view replay under torch.compile)"),
    ("torch.autograd", "enforce_grad_layout_policy", "gradient memory-layout policy (numpy arrays have no strides policy)"),
    ("torch.func", "debug_unwrap", "functorch wrapper internals"),
    ("torch.func", "functionalize", "functionalization pass (compat's ops are already functional underneath)"),
    # --- optim / data / serialization --------------------------------------------
    ("torch.optim.lr_scheduler", "EPOCH_DEPRECATION_WARNING", _DOC), ("torch.optim.lr_scheduler", "TYPE_CHECKING", "typing flag"),
    ("torch.utils.data", "*DataPipe*", _DATAPIPE), ("torch.utils.data", "DataChunk", _DATAPIPE),
    ("torch.utils.data", "datapipes", _DATAPIPE), ("torch.utils.data", "functional_datapipe", _DATAPIPE),
    ("torch.utils.data", "guaranteed_datapipes_determinism", _DATAPIPE), ("torch.utils.data", "non_deterministic", _DATAPIPE),
    ("torch.utils.data", "runtime_validation*", _DATAPIPE), ("torch.utils.data", "argument_validation", _DATAPIPE),
    ("torch.utils.data", "graph", _DATAPIPE), ("torch.utils.data", "_DatasetKind", "DataLoader internal (torch lists it in __all__)"), ("torch.utils.data", "graph_settings", _DATAPIPE),
    ("torch.serialization", "*_SIZE", "legacy (pre-zip) format constants"),
    ("torch.serialization", "MAGIC_NUMBER", "legacy (pre-zip) format constants"),
    ("torch.serialization", "PROTOCOL_VERSION", "legacy (pre-zip) format constants"),
    ("torch.serialization", "STORAGE_KEY_SEPARATOR", "legacy (pre-zip) format constants"),
    ("torch.serialization", "IS_WINDOWS", "platform constant of torch's own implementation"),
    ("torch.serialization", "MAP_*", "mmap flags for torch's C++ loader"),
    ("torch.serialization", "Storage", _STORAGE), ("torch.serialization", "StorageType", _STORAGE),
    ("torch.serialization", "*storage*", _STORAGE), ("torch.serialization", "UNSAFE_MESSAGE", _DOC),
    ("torch.serialization", "mkdtemp", "internal helper"), ("torch.serialization", "get_source_lines_and_file", "internal helper"),
    ("torch.serialization", "check_module_version_greater_or_equal", "internal helper"),
    ("torch.serialization", "validate_*_device", "internal helper of the CUDA/HPU restore locations"),
    ("torch.serialization", "*crc32*", "CRC options of torch's C++ zip writer"),
    ("torch.serialization", "register_package", _STORAGE), ("torch.serialization", "default_restore_location", _STORAGE),
    ("torch.serialization", "location_tag", _STORAGE), ("torch.serialization", "skip_data", "prototype (PyTorch says so)"),
    ("torch.testing", "FileCheck", _TS),
    # --- backends / accelerator / cuda -----------------------------------------------
    ("torch.backends", "cusparselt", _KERNEL), ("torch.backends", "kleidiai", _KERNEL), ("torch.backends", "miopen", _KERNEL),
    ("torch.backends", "mkl", _KERNEL), ("torch.backends", "mkldnn", _KERNEL), ("torch.backends", "nnpack", _KERNEL),
    ("torch.backends", "openmp", _BUILD), ("torch.backends", "quantized", _Q), ("torch.backends", "m", "internal alias"),
    ("torch.backends", "mha", "fast-path flag of the fused C++ MultiheadAttention kernel"),
    ("torch.backends", "python_native", "per-op native-kernel switches of torch's C++ build"),
    ("torch.accelerator", "Graph", _CUDA), ("torch.accelerator", "graphs", _CUDA),
    ("torch.accelerator", "*stream*", _CUDA), ("torch.accelerator", "torch", "internal import"),
    ("torch.cuda", "*Storage", _STORAGE), ("torch.cuda", "CUDAGraph", _CUDA), ("torch.cuda", "*graph*", _CUDA),
    ("torch.cuda", "CUDAPluggableAllocator", _CUDA), ("torch.cuda", "MemPool", _CUDA), ("torch.cuda", "use_mem_pool", _CUDA),
    ("torch.cuda", "caching_allocator_*", _CUDA), ("torch.cuda", "change_current_allocator", _CUDA),
    ("torch.cuda", "get_allocator_backend", _CUDA), ("torch.cuda", "nvtx", _CUDA), ("torch.cuda", "jiterator", _CUDA),
    ("torch.cuda", "tunable", _CUDA), ("torch.cuda", "green_contexts", _CUDA), ("torch.cuda", "GreenContext", _CUDA),
    ("torch.cuda", "gds", _CUDA), ("torch.cuda", "cudart", _CUDA), ("torch.cuda", "cudaStatus", _CUDA),
    ("torch.cuda", "current_blas_handle", _CUDA), ("torch.cuda", "current_solver_handle", _CUDA),
    ("torch.cuda", "*sync_debug_mode", _CUDA), ("torch.cuda", "ipc_collect", _CUDA), ("torch.cuda", "nccl",
                                                                                       "torch.distributed work (funcgrad/compat/distributed)"),
    ("torch.cuda", "profiler", "the CUDA profiler (cudaProfilerStart)"), ("torch.cuda", "sparse", "legacy CUDA sparse tensor types"),
    ("torch.cuda", "TYPE_CHECKING", "typing flag"), ("torch.cuda", "classproperty", "internal decorator"),
    ("torch.cuda", "torch", "internal import"), ("torch.cuda", "PYTORCH_RELEASES_CODE_CC", "libtorch build table"),
    ("torch.cuda", "DEVICE_REQUIREMENT", "libtorch build table"), ("torch.cuda", "get_gencode_flags", _BUILD),
    ("torch.cuda", "get_arch_list", _BUILD), ("torch.cuda", "has_magma", _BUILD), ("torch.cuda", "has_half", _BUILD),
    ("torch.cuda", "check_error", _CUDA), ("torch.cuda", "CudaError", _CUDA),
    ("torch.cuda", "DeferredCudaCallError", _CUDA), ("torch.cuda", "list_gpu_processes", "needs pynvml (NVML)"),
    ("torch.cuda", "power_draw", "needs pynvml (NVML)"), ("torch.cuda", "temperature", "needs pynvml (NVML)"),
    ("torch.cuda", "clock_rate", "needs pynvml (NVML)"), ("torch.cuda", "utilization", "needs pynvml (NVML)"),
    ("torch.cuda", "memory_usage", "needs pynvml (NVML)"), ("torch.cuda", "device_memory_used", "needs pynvml (NVML)"),
    ("torch.cuda", "host_memory_stats*", "pinned-host caching allocator (none in cupy's default setup)"),
    ("torch.cuda", "reset_*host_memory_stats", "pinned-host caching allocator (none in cupy's default setup)"),
    ("torch.cuda", "get_stream_from_external", _CUDA), ("torch.cuda", "ExternalStream", _CUDA),
]


def _public_names(obj, ns):
    """The public names of ``obj`` as the module docstring defines them."""
    import torch  # noqa: PLC0415

    if ns == "torch.Tensor":
        return sorted(n for n in dir(obj) if not n.startswith("_"))
    listed = set(getattr(obj, "__all__", None) or ())
    out = set(listed)
    for n in dir(obj):
        if n.startswith("_") or n in out:
            continue
        v = getattr(obj, n)
        if isinstance(v, types.ModuleType):
            if v.__name__ == f"{ns}.{n}":  # a submodule (not an alias such as torch.windows)
                out.add(n)
            continue
        if v is torch.Tensor or isinstance(v, typing.TypeVar):
            continue
        mod = getattr(v, "__module__", None)
        if isinstance(v, (bool, int, float, str)) or mod is None or mod.startswith("torch"):
            out.add(n)
    return sorted(out)


def _resolve(root, path):
    for part in path:
        root = getattr(root, part)
    return root


def _match(table, ns, name):
    for row in table:
        if fnmatch.fnmatchcase(ns, row[0]) and fnmatch.fnmatchcase(name, row[1]):
            return row[2]
    return None


def classify():
    """{namespace: {"present": [...], "missing": [...], "na": {name: reason}, "elsewhere": {name: where}}}."""
    import torch  # noqa: PLC0415

    import funcgrad.compat as compat  # noqa: PLC0415

    instance = compat.tensor([1.0])
    result = {}
    for ns in NAMESPACES:
        path = ns.split(".")[1:]
        theirs = _resolve(torch, path)
        try:
            ours = _resolve(compat, path)
        except AttributeError:
            ours = None
        entry = {"present": [], "missing": [], "na": {}, "elsewhere": {}}
        for name in _public_names(theirs, ns):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                have = ours is not None and (hasattr(ours, name) or (ns == "torch.Tensor" and hasattr(instance, name)))
            if have:
                entry["present"].append(name)
            elif (where := _match(HANDLED_ELSEWHERE, ns, name)) is not None:
                entry["elsewhere"][name] = where
            elif (why := _match(NOT_APPLICABLE, ns, name)) is not None:
                entry["na"][name] = why
            else:
                entry["missing"].append(name)
        result[ns] = entry
    return result


def _names(names):
    return ", ".join(f"`{n}`" for n in names) if names else "(none)"


def render(result, torch_version):
    total = {k: sum(len(e[k]) for e in result.values()) for k in ("present", "missing", "na", "elsewhere")}
    lines = [
        "# PyTorch API coverage of funcgrad.compat",
        "",
        f"Generated by `scripts/gen_compat_coverage.py` against torch {torch_version} (do not edit by hand;",
        "rerun the script where torch is installed). The public names of each namespace are its `__all__`",
        "plus every non-underscore name torch defines there (submodules, functions, classes, constants);",
        "for `torch.Tensor`, every public attribute of the class. A name is **present** when",
        "`funcgrad.compat` has it at the same place (tests/compat/test_coverage_names.py checks every one,",
        "without torch), **not applicable** when a row of the script's `NOT_APPLICABLE` table gives the",
        "reason, **elsewhere** when another package covers it (torch.distributed), otherwise **missing**.",
        "See [compat.md](compat.md) for how compat works and its differences from PyTorch.",
        "",
        "| namespace | names | present | missing | not applicable | elsewhere |",
        "|---|---|---|---|---|---|",
    ]
    for ns, e in result.items():
        n = sum(len(e[k]) for k in ("present", "missing", "na", "elsewhere"))
        lines.append(f"| [`{ns}`](#{ns.replace('.', '')}) | {n} | {len(e['present'])} | {len(e['missing'])} | "
                     f"{len(e['na'])} | {len(e['elsewhere'])} |")
    lines.append(f"| **all** | {sum(total.values())} | {total['present']} | {total['missing']} | {total['na']} | "
                 f"{total['elsewhere']} |")
    for ns, e in result.items():
        lines += ["", f"## {ns}", "", f"**Missing** ({len(e['missing'])}): {_names(e['missing'])}", ""]
        if e["na"] or e["elsewhere"]:
            lines += ["| not applicable | reason |", "|---|---|"]
            by_reason = {}
            for name, why in list(e["na"].items()) + list(e["elsewhere"].items()):
                by_reason.setdefault(why, []).append(name)
            lines += [f"| {_names(names)} | {why} |" for why, names in by_reason.items()]
            lines.append("")
        lines.append(f"**Present** ({len(e['present'])}): {_names(e['present'])}")
    return "\n".join(lines) + "\n"


def main(argv):
    import torch  # noqa: PLC0415

    result = classify()
    page = render(result, torch.__version__.split("+")[0])
    data = json.dumps({ns: e["present"] for ns, e in result.items()}, indent=1, sort_keys=True) + "\n"
    if "--check" in argv:
        stale = [p for p, text in ((PAGE, page), (DATA, data)) if not p.exists() or p.read_text() != text]
        for p in stale:
            print(f"{p.relative_to(ROOT)} is out of date: rerun scripts/gen_compat_coverage.py")
        return 1 if stale else 0
    PAGE.write_text(page)
    DATA.parent.mkdir(parents=True, exist_ok=True)
    DATA.write_text(data)
    for ns, e in result.items():
        print(f"{ns:28s} present {len(e['present']):4d}  missing {len(e['missing']):4d}  n.a. {len(e['na']):4d}  "
              f"elsewhere {len(e['elsewhere'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
