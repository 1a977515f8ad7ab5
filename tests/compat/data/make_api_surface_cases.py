"""Write api_surface_cases.json: expected values of the names compat gained from the coverage work,
computed with real PyTorch (run where torch is installed; the test needs only the JSON):

    /work/venvs/torch/bin/python tests/compat/data/make_api_surface_cases.py

Each case is a Python expression over ``torch`` (and ``x``, a float64 tensor that requires grad,
for gradient cases); the test evaluates it with funcgrad.compat as ``torch``.
"""

import json
import warnings
from pathlib import Path

import torch

OUT = Path(__file__).with_name("api_surface_cases.json")

T = "torch.tensor"
VALUE = [
    # element-wise math
    f"torch.copysign({T}([1, 2]), -1.0)", f"torch.copysign({T}([1., -0., 3.]), {T}([-0.0, 1., -2.]))",
    f"torch.copysign({T}(3), {T}(-2))", f"torch.copysign({T}([], dtype=torch.float64), 1.0)",
    f"{T}([5, -3]).bitwise_left_shift(2)", f"torch.bitwise_right_shift({T}([-5, 5], dtype=torch.int8), 1)",
    f"torch.bitwise_left_shift({T}([1, 2], dtype=torch.uint8), 7)", f"{T}(12).bitwise_right_shift({T}(2))",
    f"torch.igamma({T}([1., 2., 0.5]), {T}([0.5, 3., 2.]))", f"torch.igammac({T}([1., 2.]), {T}([0.5, 3.]))",
    f"torch.rsub({T}([1., 2.]), 5)", f"torch.rsub({T}([1., 2.]), {T}([3., 3.]), alpha=2)",
    f"torch.fill({T}([[1, 2]]), 7)", f"torch.fill(torch.zeros(2, 2), {T}(1.5))",
    f"torch.cumulative_trapezoid({T}([1., 2., 4., 7.]))",
    f"torch.cumulative_trapezoid({T}([[1., 2., 4.], [0., 1., 1.]]), dim=0)",
    f"torch.cumulative_trapezoid({T}([1., 2., 4.]), {T}([0., 1., 3.]))",
    f"torch.cumulative_trapezoid({T}([1., 2., 4.]), dx=0.5)",
    # in-place variants (the value of the tensor after the call)
    f"{T}([1., 2., 3.]).acosh_()", f"{T}([0.1, 0.5]).atanh_()", f"{T}([0.5, -0.2]).erfinv_()",
    f"{T}([1., 2., 3.]).cumsum_(0)", f"{T}([[1., 2.], [3., 4.]]).cumprod_(-1)", f"{T}([3, 5]).bitwise_xor_(6)",
    f"{T}([1.5, -2.5]).fix_()", f"{T}([12, 18]).gcd_({T}([8, 12]))", f"{T}([1., 2.]).greater_(1.5)",
    f"{T}([1., 2.]).not_equal_({T}([1., 3.]))", f"{T}([0.2, 0.7]).logit_()", f"{T}([0., 1.]).sinc_()",
    f"{T}([1., 2.]).xlogy_(3.)", f"{T}([1., 2.]).copysign_(-1.)", f"{T}([2., 3.]).lgamma_()",
    f"{T}([2., 3.]).polygamma_(1)", f"{T}([2., 3.], dtype=torch.float64).float_power_(2)",
    f"{T}([2., 3.]).mvlgamma_(2)", f"{T}([[3., 4.], [0., 1.]]).renorm_(2, 0, 1.)",
    f"{T}([90., 180.]).deg2rad_()", f"{T}([1., 0.]).heaviside_({T}([0.5, 0.5]))",
    f"torch.abs_({T}([-1., 2.]))", f"torch.relu_({T}([-1., 2.]))", f"torch.selu_({T}([-1., 2.]))",
    f"torch.sigmoid_({T}([0.]))", f"torch.zero_({T}([1., 2.]))", f"torch.fill_({T}([1., 2.]), 3.)",
    f"torch.clamp_({T}([-1., 5.]), 0., 1.)",
    # in-place view ops
    "torch.zeros(2, 1, 3).squeeze_().shape", "torch.zeros(2, 1, 3).squeeze_(-2).shape",
    "torch.zeros(2, 3).unsqueeze_(-1).shape", "torch.arange(6.).reshape(2, 3).t_()",
    "torch.arange(6.).reshape(1, 2, 3).transpose_(0, 2)", "torch.arange(6.).reshape(2, 3).swapaxes_(0, 1)",
    "torch.arange(6.).reshape(2, 3).swapdims_(1, 0)",
    # Tensor metadata
    "torch.zeros(2, 3).t().dim_order()", "torch.zeros(2, 3, 4).permute(2, 0, 1).dim_order()", "torch.zeros(()).dim_order()",
    "torch.zeros(2, 3).nbytes", "torch.zeros(2, 3, dtype=torch.int16).itemsize", "torch.zeros(0, 3).nbytes",
    "torch.zeros(3).get_device()", "torch.zeros(2, 3).dense_dim()", "torch.zeros(2, 3).sparse_dim()",
    "torch.zeros(2).is_cpu", "torch.zeros(2).is_sparse_csr", "torch.zeros(2).output_nr",
    f"{T}(1.).is_signed()", f"{T}(1, dtype=torch.uint8).is_signed()", f"{T}(True).is_signed()",
    f"torch.is_signed({T}([1]))", "torch.is_conj(torch.zeros(2))", "torch.is_neg(torch.zeros(2))",
    "torch.zeros(2, 3).is_same_size(torch.ones(2, 3))", "torch.is_same_size(torch.zeros(2), torch.zeros(3))",
    "torch.zeros(1).is_distributed()", "(lambda t: t.const_data_ptr() == t.data_ptr())(torch.zeros(2, 3)[1:])",
    "torch.arange(6.).reshape(2, 3).adjoint()", f"torch.adjoint({T}([[1 + 2j, 3j]]))",
    "torch.arange(6.).reshape(2, 3).sum_to_size(1, 3)", "torch.arange(6.).reshape(2, 3).sum_to_size(2, 1)",
    "torch.arange(24.).reshape(2, 3, 4).sum_to_size(3, 1)", "torch.arange(6.).reshape(2, 3).sum_to_size((2, 3))",
    "torch.arange(6.).split_with_sizes([2, 4])", "torch.split_with_sizes(torch.arange(6.).reshape(2, 3), [1, 2], -1)",
    "torch.arange(5.).unsafe_chunk(2)", "torch.unsafe_split(torch.arange(5.), 2)",
    "torch.narrow_copy(torch.arange(6.).reshape(2, 3), -1, 1, 2)", "torch.zeros(2).new_empty_strided((2, 3), (3, 1)).shape",
    f"torch.put(torch.zeros(2, 2), {T}([0, -1]), {T}([1., 2.]))",
    f"torch.zeros(2, 2).put_({T}([1, 1]), {T}([1., 2.]), accumulate=True)",
    "torch.zeros(3, 3).fill_diagonal_(5.)", "torch.zeros(7, 3).fill_diagonal_(5., wrap=True)",
    "torch.zeros(7, 3).fill_diagonal_(5.)", "torch.zeros(2, 2, 2).fill_diagonal_(1.)", "torch.zeros(2, 4).fill_diagonal_(2.)",
    f"torch.zeros(2, 3).masked_scatter_({T}([[True, False, True], [False, True, False]]), torch.arange(1., 7.).reshape(2, 3))",
    f"{T}([-1., 0.2, 0.8]).hardshrink(0.5)", f"{T}([-1., 2.]).prelu({T}([0.25]))",
    # torch.* forms of nn.functional ops (ATen signatures)
    f"torch.hardshrink({T}([-1., 0.2]), 0.1)", f"torch.prelu({T}([[-1., 2.]]), {T}([0.1, 0.2]))",
    f"torch.celu({T}([-1., 1.]), 2.)", f"torch.selu({T}([-1., 1.]))", f"torch.threshold({T}([0.5, 2.]), 1., -1.)",
    f"torch.rrelu({T}([-1., 1.]))", "torch.dropout(torch.ones(3), 0.5, False)", "torch.alpha_dropout(torch.ones(3), 0.5, False)",
    "torch.feature_dropout(torch.ones(2, 3, 4), 0.3, False)", "torch.feature_alpha_dropout(torch.ones(2, 3), 0.3, False)",
    "torch.dropout(torch.ones(3), 0., True)",
    f"torch.embedding(torch.arange(6.).reshape(3, 2), {T}([[2, 0], [1, 1]]))",
    f"torch.embedding(torch.arange(6.).reshape(3, 2), {T}([2]), 0)",
    "torch.layer_norm(torch.arange(6.).reshape(2, 3), [3])",
    "torch.layer_norm(torch.arange(6.).reshape(2, 3), (3,), torch.full((3,), 2.), torch.ones(3), 1e-5, False)",
    "torch.group_norm(torch.arange(16.).reshape(1, 4, 4), 2)", "torch.rms_norm(torch.arange(6.).reshape(2, 3), [3])",
    "torch.batch_norm(torch.arange(12.).reshape(3, 4), None, None, torch.zeros(4), torch.ones(4), False, 0.1, 1e-5, False)",
    "torch.batch_norm(torch.arange(12.).reshape(3, 4), torch.ones(4), torch.zeros(4), None, None, True, 0.1, 1e-5, False)",
    "torch.instance_norm(torch.arange(12.).reshape(1, 2, 6), None, None, None, None, True, 0.1, 1e-5, False)",
    "torch.constant_pad_nd(torch.ones(2, 2), [1, 0, 0, 2], 3.)",
    "torch.conv1d(torch.arange(10.).reshape(1, 2, 5), torch.ones(3, 2, 2), None, 1, 1)",
    "torch.conv2d(torch.arange(16.).reshape(1, 1, 4, 4), torch.ones(1, 1, 2, 2), torch.tensor([1.]), 2)",
    "torch.conv_transpose1d(torch.arange(4.).reshape(1, 1, 4), torch.ones(1, 2, 3))",
    "torch.convolution(torch.arange(16.).reshape(1, 1, 4, 4), torch.ones(2, 1, 3, 3), None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1)",
    "torch.convolution(torch.arange(4.).reshape(1, 1, 4), torch.ones(1, 1, 2), None, [2], [0], [1], True, [1], 1)",
    "torch.max_pool1d(torch.arange(6.).reshape(1, 1, 6), 2)", "torch.max_pool2d(torch.arange(16.).reshape(1, 1, 4, 4), 2, 1)",
    "torch.max_pool1d_with_indices(torch.tensor([[[1., 3., 2., 5., 4.]]]), 2)",
    "torch.avg_pool1d(torch.arange(6.).reshape(1, 1, 6), 3)", "torch.adaptive_avg_pool1d(torch.arange(6.).reshape(1, 1, 6), 4)",
    "torch.pixel_shuffle(torch.arange(8.).reshape(1, 4, 1, 2), 2)", "torch.pixel_unshuffle(torch.arange(8.).reshape(1, 1, 2, 4), 2)",
    "torch.channel_shuffle(torch.arange(4.).reshape(1, 4, 1), 2)",
    "torch.cosine_similarity(torch.tensor([[1., 0.], [1., 1.]]), torch.tensor([[1., 1.], [1., 1.]]))",
    "torch.pairwise_distance(torch.tensor([[0., 0.], [1., 1.]]), torch.tensor([[3., 4.], [1., 1.]]))",
    "torch.pdist(torch.tensor([[0., 0.], [3., 4.], [6., 8.]]))", "torch.pdist(torch.tensor([[0., 0.], [3., 4.]]), 1)",
    "torch.pdist(torch.tensor([[0., 0.], [3., 4.], [1., 1.]]), 0)", "torch.pdist(torch.tensor([[0., 0.], [3., -4.]]), float('inf'))",
    "torch.pdist(torch.zeros(1, 3))", "torch.pdist(torch.zeros(0, 3))",
    "torch.bilinear(torch.ones(2, 3), torch.arange(8.).reshape(2, 4), torch.ones(5, 3, 4))",
    "torch.bilinear(torch.ones(3), torch.ones(4), torch.ones(2, 3, 4), torch.tensor([1., 2.]))",
    "torch.binary_cross_entropy_with_logits(torch.tensor([0.5, -1.]), torch.tensor([1., 0.]))",
    "torch.binary_cross_entropy_with_logits(torch.tensor([0.5, -1.]), torch.tensor([1., 0.]), None, torch.tensor([2., 2.]), 0)",
    "torch.kl_div(torch.tensor([-1., -2.]), torch.tensor([0.3, 0.7]), 2)",
    "torch.kl_div(torch.tensor([-1., -2.]), torch.tensor([-1., -0.5]), 0, log_target=True)",
    "torch.cosine_embedding_loss(torch.tensor([[1., 0.]]), torch.tensor([[0., 1.]]), torch.tensor([1.]), 0., 2)",
    "torch.hinge_embedding_loss(torch.tensor([0.3, 2.]), torch.tensor([1., -1.]), 1., 0)",
    "torch.margin_ranking_loss(torch.tensor([1., 2.]), torch.tensor([2., 1.]), torch.tensor([1., 1.]), 0.5, 1)",
    "torch.poisson_nll_loss(torch.tensor([0.5, 1.]), torch.tensor([1., 2.]), True, False, 1e-8, 1)",
    "torch.triplet_margin_loss(torch.tensor([[0., 0.]]), torch.tensor([[1., 0.]]), torch.tensor([[0., 2.]]), 1., 2., 1e-6, False, 0)",
    # the top-level losses do not reduce by default
    "torch.kl_div(torch.tensor([-1., -2.]), torch.tensor([0.3, 0.7]))",
    "torch.cosine_embedding_loss(torch.tensor([[1., 0.], [1., 1.]]), torch.tensor([[0., 1.], [1., 1.]]), torch.tensor([1., -1.]))",
    "torch.hinge_embedding_loss(torch.tensor([0.3, 2.]), torch.tensor([1., -1.]))",
    "torch.margin_ranking_loss(torch.tensor([1., 2.]), torch.tensor([2., 1.]), torch.tensor([1., 1.]))",
    "torch.triplet_margin_loss(torch.tensor([[0., 0.], [1., 1.]]), torch.tensor([[1., 0.], [1., 1.]]), torch.tensor([[0., 2.], [3., 1.]]))",
    "torch.ctc_loss(torch.linspace(-2., -0.5, 40).reshape(5, 2, 4).log_softmax(2), torch.tensor([[1, 2], [1, 1]]), [5, 5], [2, 2])",
    "torch.ctc_loss(torch.linspace(-2., -0.5, 40).reshape(5, 2, 4).log_softmax(2), torch.tensor([[1, 2], [1, 1]]), [5, 4], [2, 1], 0, 1)",
    "torch.nn.functional.max_pool2d_with_indices(torch.arange(16.).reshape(1, 1, 4, 4), 2)",
    "torch.nn.functional.adaptive_max_pool3d(torch.arange(27.).reshape(1, 3, 3, 3), 2)",
    "torch.nn.functional.lp_pool3d(torch.arange(8.).reshape(1, 1, 2, 2, 2), 2, 2)",
    "torch.nn.functional.upsample_nearest(torch.arange(4.).reshape(1, 1, 2, 2), scale_factor=2)",
    "torch.nn.functional.upsample_bilinear(torch.arange(4.).reshape(1, 1, 2, 2), size=3)",
    "torch.nn.functional.GRID_SAMPLE_INTERPOLATION_MODES", "torch.nn.functional.GRID_SAMPLE_PADDING_MODES",
    # *_copy, scatter forms, misc torch.*
    "torch.permute_copy(torch.arange(6.).reshape(2, 3), (1, 0))", "torch.select_copy(torch.arange(6.).reshape(2, 3), -1, 1)",
    "torch.slice_copy(torch.arange(5), 0, 1, 4, 2)", "torch.slice_copy(torch.arange(6).reshape(2, 3), -1, None, 2)",
    "torch.diagonal_copy(torch.arange(9.).reshape(3, 3), 1)", "torch.expand_copy(torch.tensor([1., 2.]), (2, 2))",
    "torch.squeeze_copy(torch.zeros(1, 2, 1)).shape", "torch.unsqueeze_copy(torch.zeros(2), -1).shape",
    "torch.t_copy(torch.arange(6.).reshape(2, 3))", "torch.transpose_copy(torch.zeros(2, 3, 4), 0, -1).shape",
    "torch.unbind_copy(torch.arange(4.).reshape(2, 2), 1)", "torch.split_copy(torch.arange(5.), 2)",
    "torch.split_with_sizes_copy(torch.arange(5.), [1, 4])", "torch.unfold_copy(torch.arange(6.), 0, 2, 2)",
    "torch.view_copy(torch.arange(6.), (3, 2))", "torch.alias_copy(torch.tensor([1, 2]))",
    "torch.detach_copy(torch.tensor([1., 2.]))", "torch.as_strided_copy(torch.arange(6.), (2, 2), (1, 2))",
    "torch.view_as_real_copy(torch.tensor([1 + 2j]))",
    "torch.diagonal_scatter(torch.zeros(2, 3), torch.ones(2), 1)", "torch.diagonal_scatter(torch.zeros(3, 2), torch.ones(2), -1)",
    "torch.diagonal_scatter(torch.zeros(2, 2, 2), torch.arange(4.).reshape(2, 2), 0, 1, 2)",
    "torch.as_strided_scatter(torch.zeros(4), torch.ones(2), (2,), (2,))",
    "torch.as_strided_scatter(torch.zeros(2, 3), torch.ones(2, 2), (2, 2), (3, 1), 1)",
    "torch.row_stack([torch.ones(2), torch.zeros(2)])",
    "torch.nonzero_static(torch.tensor([0, 1, 1]), size=4)", "torch.nonzero_static(torch.tensor([[1, 1], [0, 1]]), size=2, fill_value=7)",
    "torch.histogramdd(torch.tensor([[0., 0.], [1., 1.], [0.2, 0.9]]), bins=[2, 2])",
    "torch.histogramdd(torch.tensor([[0., 0.], [1., 1.], [0.2, 0.9]]), bins=[2, 3], range=[0., 1., 0., 2.], density=True)",
    "(lambda w: (torch.embedding_renorm_(w, torch.tensor([0, 1]), 1.0, 2.), w)[1])(torch.tensor([[3., 4.], [0.1, 0.], [5., 5.]]))",
    "torch.cond(torch.tensor(True), lambda a: a + 1, lambda a: a - 1, (torch.ones(2),))",
    "torch.cond(False, lambda a: a + 1, lambda a: a - 1, (torch.ones(2),))",
    "torch.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s * 2), (torch.tensor(0), torch.tensor(1.)))",
    "torch.rnn_tanh_cell(torch.ones(2, 3), torch.zeros(2, 4), torch.full((4, 3), 0.1), torch.full((4, 4), 0.2), torch.ones(4), None)",
    "torch.rnn_relu_cell(torch.ones(1, 3), torch.ones(1, 2), torch.full((2, 3), -0.1), torch.full((2, 2), 0.2))",
    "torch.gru_cell(torch.linspace(-1, 1, 6).reshape(2, 3), torch.linspace(0, 1, 4).reshape(2, 2), torch.linspace(-1, 1, 18).reshape(6, 3), torch.linspace(1, -1, 12).reshape(6, 2), torch.linspace(0, 1, 6), torch.linspace(1, 0, 6))",
    "torch.lstm_cell(torch.linspace(-1, 1, 6).reshape(2, 3), (torch.linspace(0, 1, 4).reshape(2, 2), torch.ones(2, 2)), torch.linspace(-1, 1, 24).reshape(8, 3), torch.linspace(1, -1, 16).reshape(8, 2), torch.linspace(0, 1, 8), None)",
    "torch.hann_window(5)", "torch.hann_window(5, False)", "torch.hann_window(1)", "torch.hann_window(0)",
    "torch.hamming_window(6)", "torch.hamming_window(6, False, 0.5, 0.5, dtype=torch.float64)",
    "torch.blackman_window(5)", "torch.bartlett_window(6)", "torch.bartlett_window(5, periodic=False)",
    "torch.kaiser_window(6)", "torch.kaiser_window(6, False, 5.0)",
    "torch.asarray([1, 2])", "torch.asarray(1.5)", "torch.asarray([[1., 2.]], dtype=torch.float64)",
    "(lambda t: torch.asarray(t) is t)(torch.ones(2))", "(lambda t: torch.asarray(t, copy=True) is t)(torch.ones(2))",
    "torch.frombuffer(bytearray(b'\\x01\\x00\\x02\\x00'), dtype=torch.int16)",
    "torch.frombuffer(bytearray(8), dtype=torch.float32, count=1, offset=4)",
    "torch.from_dlpack(torch.arange(3))", "torch.empty_permuted((2, 3, 4), (0, 2, 1)).stride()",
    "torch.empty_permuted((2, 3), (1, 0)).shape",
"torch.get_deterministic_debug_mode()", "torch.get_num_interop_threads() >= 1",
    "torch.has_lapack", "torch.has_spectral", "torch.newaxis is None",
    # linalg
    "torch.linalg.solve_triangular(torch.tensor([[2., 1.], [0., 4.]]), torch.tensor([[1.], [2.]]), upper=True)",
    "torch.linalg.solve_triangular(torch.tensor([[2., 9.], [1., 4.]]), torch.tensor([[1., 2.]]), upper=False, left=False)",
    "torch.linalg.solve_triangular(torch.tensor([[2., 1.], [0., 4.]]), torch.tensor([[1.], [2.]]), upper=True, unitriangular=True)",
    "torch.linalg.cholesky_ex(torch.tensor([[4., 2.], [2., 3.]]))", "torch.linalg.cholesky_ex(torch.tensor([[1., 2.], [2., 1.]])).info",
    "torch.linalg.cholesky_ex(torch.tensor([[[4., 2.], [2., 3.]], [[-1., 0.], [0., 1.]]])).info",
    "torch.linalg.inv_ex(torch.tensor([[4., 2.], [2., 3.]]))", "torch.linalg.inv_ex(torch.tensor([[1., 2.], [2., 4.]])).info",
    "torch.linalg.solve_ex(torch.tensor([[4., 2.], [2., 3.]]), torch.tensor([1., 2.]))",
    "torch.linalg.lu_factor(torch.tensor([[1., 2.], [3., 4.]]))", "torch.linalg.lu_factor(torch.tensor([[1., 2., 0.], [3., 4., 1.], [0., 5., 2.]]))",
    "torch.linalg.lu_factor_ex(torch.tensor([[[1., 2.], [3., 4.]], [[2., 0.], [0., 1.]]]))",
    "torch.linalg.lu(torch.tensor([[1., 2.], [3., 4.]]))", "torch.linalg.lu(torch.tensor([[1., 2., 0.], [3., 4., 1.], [0., 5., 2.]]))",
    "torch.linalg.lu(torch.tensor([[1., 2.], [3., 4.], [5., 7.]]))", "torch.linalg.lu(torch.tensor([[1., 2., 3.], [4., 6., 5.]]))",
    "torch.linalg.lu_solve(*torch.linalg.lu_factor(torch.tensor([[1., 2.], [3., 4.]])), torch.tensor([[1.], [1.]]))",
    "torch.linalg.lu_solve(*torch.linalg.lu_factor(torch.tensor([[1., 2.], [3., 4.]])), torch.tensor([[1., 1.]]), left=False)",
    "torch.linalg.lu_solve(*torch.linalg.lu_factor(torch.tensor([[1., 2.], [3., 4.]])), torch.tensor([[1.], [1.]]), adjoint=True)",
    "torch.lu_unpack(*torch.linalg.lu_factor(torch.tensor([[1., 2., 0.], [3., 4., 1.], [0., 5., 2.]])))",
    "torch.lu_solve(torch.tensor([[1.], [1.]]), *torch.linalg.lu_factor(torch.tensor([[1., 2.], [3., 4.]])))",
    "torch.linalg.eigvals(torch.tensor([[2., 0.], [0., 3.]]))", "torch.linalg.eig(torch.tensor([[2., 0.], [0., 3.]], dtype=torch.float64))",
    "torch.linalg.lstsq(torch.tensor([[1., 0.], [0., 1.], [1., 1.]]), torch.tensor([[1.], [2.], [4.]]))",
    "torch.linalg.lstsq(torch.tensor([[1., 0.], [0., 1.]]), torch.tensor([[1.], [2.]]))",
    "torch.linalg.lstsq(torch.tensor([[1., 0.], [0., 1.], [1., 1.]]), torch.tensor([[1.], [2.], [4.]]), driver='gelsd')",
    "torch.linalg.matrix_rank(torch.tensor([[1., 2.], [2., 4.]]))", "torch.linalg.matrix_rank(torch.eye(3))",
    "torch.linalg.matrix_rank(torch.tensor([[1., 0.], [0., 1e-3]]), atol=0.01)",
    "torch.linalg.matrix_rank(torch.tensor([[[1., 2.], [2., 4.]], [[1., 0.], [0., 1.]]]))",
    "torch.linalg.cond(torch.tensor([[1., 0.], [0., 4.]]))", "torch.linalg.cond(torch.tensor([[1., 2.], [3., 4.]]), 'fro')",
    "torch.linalg.cond(torch.tensor([[1., 2.], [3., 4.]]), 1)", "torch.linalg.cond(torch.tensor([[1., 2.], [3., 4.]]), -2)",
    "torch.linalg.matrix_exp(torch.tensor([[0., 1.], [-1., 0.]]))", "torch.linalg.matrix_exp(torch.zeros(2, 2, 2))",
    "torch.linalg.vecdot(torch.tensor([[1., 2.], [3., 4.]]), torch.tensor([1., 1.]))",
    "torch.linalg.vecdot(torch.tensor([1j, 2.]), torch.tensor([1j, 1.]))",
    "torch.linalg.vander(torch.tensor([1., 2., 3.]))", "torch.linalg.vander(torch.tensor([[1., 2.]]), N=4)",
    "torch.linalg.diagonal(torch.arange(8.).reshape(2, 2, 2))", "torch.linalg.diagonal(torch.arange(6.).reshape(2, 3), offset=1)",
    "torch.linalg.tensorinv(torch.eye(4).reshape(4, 2, 2), ind=1)",
    "torch.linalg.tensorsolve(torch.eye(6).reshape(2, 3, 6), torch.ones(2, 3))",
    "torch.linalg.householder_product(torch.tensor([[1., 0.], [0.5, 1.], [0.2, 0.3]]), torch.tensor([1.2, 0.5]))",
    "torch.linalg.householder_product(torch.tensor([[1., 0.], [0.5, 1.], [0.2, 0.3]]), torch.tensor([1.2]))",
    "torch.triangular_solve(torch.tensor([[1.], [2.]]), torch.tensor([[2., 1.], [0., 4.]]))",
    "torch.triangular_solve(torch.tensor([[1.], [2.]]), torch.tensor([[2., 1.], [0., 4.]]), transpose=True)",
    "torch.triangular_solve(torch.tensor([[1.], [2.]]), torch.tensor([[2., 0.], [3., 4.]]), upper=False, unitriangular=True)",
    "torch.cholesky_solve(torch.tensor([[1.], [2.]]), torch.linalg.cholesky(torch.tensor([[4., 2.], [2., 3.]])))",
    "torch.cholesky_solve(torch.tensor([[1.], [2.]]), torch.linalg.cholesky(torch.tensor([[4., 2.], [2., 3.]])).mT, upper=True)",
    "torch.cholesky_inverse(torch.linalg.cholesky(torch.tensor([[4., 2.], [2., 3.]])))",
    "torch.tensor([[1.], [2.]]).cholesky_solve(torch.linalg.cholesky(torch.tensor([[4., 2.], [2., 3.]])))",
    "torch.linalg.matrix_norm(torch.tensor([[1., -2.], [3., 4.]]), 1)", "torch.linalg.matrix_norm(torch.tensor([[1., -2.], [3., 4.]]), -1)",
    "torch.linalg.matrix_norm(torch.tensor([[1., -2.], [3., 4.]]), float('inf'))", "torch.linalg.matrix_norm(torch.tensor([[1., -2.], [3., 4.]]), 'nuc')",
    "torch.linalg.matrix_norm(torch.tensor([[1., -2.], [3., 4.]]), 2)", "torch.linalg.matrix_norm(torch.tensor([[1., -2.], [3., 4.]]), -2)",
    "torch.linalg.matrix_norm(torch.arange(12.).reshape(2, 3, 2), 1, (0, 2), keepdim=True)",
    "torch.linalg.norm(torch.tensor([[1., -2.], [3., 4.]]), 1)", "torch.linalg.norm(torch.tensor([[1., -2.], [3., 4.]]))",
    "torch.linalg.norm(torch.arange(8.).reshape(2, 2, 2))", "torch.linalg.norm(torch.arange(8.).reshape(2, 2, 2), 1, -1)",
    "torch.linalg.norm(torch.arange(8.).reshape(2, 2, 2), float('inf'), (1, 2), True)", "torch.linalg.norm(torch.tensor([3., -4.]), 0)",
    "torch.frobenius_norm(torch.arange(6.).reshape(2, 3), (0, 1))", "torch.frobenius_norm(torch.arange(6.).reshape(2, 3), [1], True)",
    "torch.nuclear_norm(torch.tensor([[3., 0.], [0., -4.]]))", "torch.nuclear_norm(torch.tensor([[3., 0.], [0., -4.]]), True)",
    "torch.nuclear_norm(torch.arange(8.).reshape(2, 2, 2), (1, 2))",
    "torch.norm_except_dim(torch.arange(6.).reshape(2, 3), 2, 0)", "torch.norm_except_dim(torch.arange(6.).reshape(2, 3), 2, 1)",
    "torch.norm_except_dim(torch.arange(6.).reshape(2, 3), 2, -1)",
]
VALUE += [
    # torch.nn.utils
    "[n for n, _ in torch.nn.utils.parametrizations.weight_norm(linear(3, 2)).named_parameters()]",
    "torch.nn.utils.parametrizations.weight_norm(linear(3, 2)).parametrizations.weight.original0",
    "torch.nn.utils.parametrizations.weight_norm(linear(3, 2), dim=1).parametrizations.weight.original0",
    "torch.nn.utils.parametrizations.weight_norm(linear(3, 2), dim=None).parametrizations.weight.original0",
    "torch.nn.utils.parametrizations.weight_norm(linear(3, 2))(torch.ones(1, 3))",
    "type(torch.nn.utils.parametrizations.weight_norm(linear(3, 2))).__name__",
    "[n for n, _ in after(torch.nn.utils.parametrizations.weight_norm(linear(3, 2)), lambda m: torch.nn.utils.parametrize.remove_parametrizations(m, 'weight')).named_parameters()]",
    "after(torch.nn.utils.parametrizations.weight_norm(linear(3, 2)), lambda m: torch.nn.utils.parametrize.remove_parametrizations(m, 'weight')).weight",
    "torch.nn.utils.parametrize.is_parametrized(torch.nn.utils.parametrizations.weight_norm(linear(3, 2)), 'weight')",
    "torch.nn.utils.parametrize.is_parametrized(linear(3, 2))",
    "torch.nn.utils.parametrize.type_before_parametrizations(torch.nn.utils.parametrizations.weight_norm(linear(3, 2))).__name__",
    "[n for n, _ in torch.nn.utils.weight_norm(linear(3, 2)).named_parameters()]",
    "torch.nn.utils.weight_norm(linear(3, 2)).weight_g", "torch.nn.utils.weight_norm(linear(3, 2))(torch.ones(2, 3))",
    "after(torch.nn.utils.weight_norm(linear(3, 2)), torch.nn.utils.remove_weight_norm).weight",
    "[n for n, _ in torch.nn.utils.spectral_norm(linear(3, 2)).named_parameters()]",
    "sorted(n for n, _ in torch.nn.utils.spectral_norm(linear(3, 2)).named_buffers())",
    "torch.linalg.matrix_norm(after(torch.nn.utils.parametrizations.spectral_norm(linear(4, 3)), lambda m: [m(torch.ones(1, 4)) for _ in range(30)]).weight.detach(), 2).round(decimals=4)",
    "torch.linalg.matrix_norm(after(torch.nn.utils.spectral_norm(linear(4, 3)), lambda m: [m(torch.ones(1, 4)) for _ in range(30)]).weight.detach(), 2).round(decimals=4)",
    "torch.nn.utils.fuse_conv_bn_eval(*conv_bn()).weight", "torch.nn.utils.fuse_conv_bn_eval(*conv_bn()).bias",
    "torch.nn.utils.fuse_conv_bn_weights(torch.ones(2, 1, 1, 1), None, torch.tensor([1., 2.]), torch.tensor([4., 1.]), 0., torch.tensor([2., 3.]), torch.tensor([0., 1.]))",
    "torch.nn.utils.fuse_conv_bn_weights(torch.ones(1, 2, 1, 1), None, torch.tensor([1., 2.]), torch.tensor([4., 1.]), 0., torch.tensor([2., 3.]), torch.tensor([0., 1.]), transpose=True)",
    "torch.nn.utils.fuse_linear_bn_weights(torch.ones(2, 3), torch.ones(2), torch.tensor([1., 2.]), torch.tensor([4., 1.]), 0., torch.tensor([2., 3.]), torch.tensor([0., 1.]))",
    "torch.nn.utils.get_total_norm([torch.ones(3), torch.full((1,), 2.)])", "torch.nn.utils.get_total_norm([torch.ones(3), torch.full((1,), -2.)], 1)",
    "torch.nn.utils.get_total_norm([torch.ones(3), torch.full((1,), -2.)], float('inf'))",
    "torch.nn.utils.get_total_norm([])",
    "(lambda p: (setattr(p, 'grad', torch.full((2,), 3.)), torch.nn.utils.clip_grads_with_norm_([p], 1.0, torch.tensor(6.)), p.grad)[2])(torch.nn.Parameter(torch.zeros(2)))",
    "(lambda p: (setattr(p, 'grad', torch.full((2,), 3.)), torch.nn.utils.clip_grad_norm(p, 1.0))[1])(torch.nn.Parameter(torch.zeros(2)))",
    "torch.nn.utils.skip_init(torch.nn.Linear, 3, 2).weight.shape",
    "torch.nn.utils.convert_parameters.parameters_to_vector(linear(2, 2).parameters())",
    "torch.nn.utils.stateless.functional_call(linear(2, 1), {'weight': torch.ones(1, 2), 'bias': torch.zeros(1)}, (torch.ones(1, 2),))",
]
VALUE += [
    # torch.fft hermitian, nn.init, torch.special
    "torch.fft.hfft2(torch.tensor([[1 + 1j, 2 - 1j, 0.5j], [0.5, 1j, -1]]))",
    "torch.fft.hfftn(torch.tensor([[1 + 1j, 2 - 1j, 0.5j], [0.5, 1j, -1]]), s=(2, 4))",
    "torch.fft.hfftn(torch.tensor([[1 + 1j, 2 - 1j], [0.5, 1j]]), norm='ortho')",
    "torch.fft.hfftn(torch.tensor([1., 2., 3.]), dim=0, norm='forward')",
    "torch.fft.ihfft2(torch.arange(12.).reshape(3, 4))", "torch.fft.ihfftn(torch.arange(12.).reshape(3, 4), norm='ortho')",
    "torch.fft.ihfftn(torch.arange(24.).reshape(2, 3, 4), dim=(0, 2))", "torch.fft.ihfft2(torch.arange(6, dtype=torch.float64).reshape(2, 3), s=(2, 4))",
    "torch.nn.init.eye(torch.empty(2, 3))", "torch.nn.init.dirac(torch.empty(2, 2, 3))",
    "(torch.nn.init.sparse_(torch.empty(4, 3), 0.5) == 0).sum(0)", "(torch.nn.init.sparse(torch.empty(5, 2), 0.3) == 0).sum(0)",
    "torch.special.erfcx(torch.tensor([-2., 0., 1., 30., float('inf')]))", "torch.special.erfcx(torch.tensor([1, 2]))",
    "torch.special.zeta(torch.tensor([2., 3.]), torch.tensor([1., 2.]))", "torch.special.zeta(2., torch.tensor([1., 0.5]))",
    "torch.special.zeta(torch.tensor([2.]), 1.)",
    "torch.special.spherical_bessel_j0(torch.tensor([0., 1., -2., 10.]))",
    "torch.special.modified_bessel_k0(torch.tensor([0.5, 1., 3.]))", "torch.special.modified_bessel_k1(torch.tensor([0.5, 1., 3.]))",
    "torch.special.scaled_modified_bessel_k0(torch.tensor([0.5, 1., 3.]))", "torch.special.scaled_modified_bessel_k1(torch.tensor([0.5, 1., 3.]))",
    "torch.special.airy_ai(torch.tensor([-1., 0., 1.5]))",
]
for _p in ("chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w",
           "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
           "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he", "laguerre_polynomial_l",
           "legendre_polynomial_p"):
    VALUE += [f"torch.special.{_p}(torch.tensor([-0.5, 0.25, 0.9, 1.5]), 3)",
              f"torch.special.{_p}(torch.tensor([0.3]), torch.tensor([0., 1., 2., 5., -1.]))",
              f"torch.special.{_p}(torch.tensor([0.3, 0.7], dtype=torch.float64), 0)"]
PRELUDE_MORE = """
def rprop_run(**kw):
    p = torch.nn.Parameter(torch.tensor([1.0, -2.0, 3.0, 0.0]))
    opt = torch.optim.Rprop([p], **kw)
    for _ in range(6):
        opt.zero_grad()
        ((p - torch.tensor([0.5, 0.0, 2.0, 0.0])) ** 2 * torch.tensor([1.0, 3.0, 0.5, 1.0])).sum().backward()
        opt.step()
    return p.detach(), opt.state[p]["step_size"], opt.state[p]["prev"], opt.state[p]["step"]
"""
VALUE += [
    "rprop_run()", "rprop_run(lr=0.5)", "rprop_run(lr=0.3, etas=(0.3, 1.5), step_sizes=(0.01, 0.4))",
    "rprop_run(lr=0.1, maximize=True)",
    "list(torch.utils.data.StackDataset(torch.arange(3), torch.arange(3.) * 2))",
    "torch.utils.data.StackDataset(a=torch.arange(3), b=torch.arange(3.) * 2)[1]",
    "len(torch.utils.data.StackDataset(torch.arange(3), torch.arange(3.)))",
    "torch.optim.lr_scheduler.inf",
    "torch.func.linearize(torch.sin, torch.tensor([0., 1.]))[0]",
    "torch.func.linearize(torch.sin, torch.tensor([0., 1.]))[1](torch.tensor([1., 2.]))",
    "torch.func.linearize(lambda a, b: a * b, torch.tensor([2.]), torch.tensor([3.]))[1](torch.tensor([1.]), torch.tensor([1.]))",
    "(lambda m: (torch.func.replace_all_batch_norm_modules_(m), m[1].running_mean, m[1].track_running_stats)[1:])(torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.BatchNorm1d(2)))",
    "torch.accelerator.device_count()", "torch.accelerator.current_accelerator() is None", "torch.accelerator.is_available()",
    "torch.autograd.is_tensor_like(torch.ones(1))", "torch.autograd.is_tensor_like([1.])",
    "torch.backends.cuda.matmul.allow_tf32", "torch.backends.opt_einsum.is_available()",
]
D = "torch.distributions."
_DISTS = {
    "Uniform(torch.tensor([0., 1.]), torch.tensor([2., 4.]))": "torch.tensor([0.5, 3.])",
    "Exponential(torch.tensor([0.5, 2.]))": "torch.tensor([1., 0.3])",
    "Laplace(torch.tensor([0., 1.]), torch.tensor([1., 2.]))": "torch.tensor([0.5, -1.])",
    "Cauchy(torch.tensor([0., 1.]), torch.tensor([1., 2.]))": "torch.tensor([0.5, -1.])",
    "Gumbel(torch.tensor([0., 1.]), torch.tensor([1., 2.]))": "torch.tensor([0.5, -1.])",
    "HalfNormal(torch.tensor([1., 2.]))": "torch.tensor([0.5, 1.5])",
    "LogNormal(torch.tensor([0., 1.]), torch.tensor([1., 0.5]))": "torch.tensor([0.5, 3.])",
    "Gamma(torch.tensor([2., 0.5]), torch.tensor([1., 3.]))": "torch.tensor([1.5, 0.2])",
    "Chi2(torch.tensor([3., 1.]))": "torch.tensor([1.5, 0.2])",
    "Beta(torch.tensor([2., 0.5]), torch.tensor([3., 0.7]))": "torch.tensor([0.3, 0.9])",
    "Dirichlet(torch.tensor([[1., 2., 3.], [0.5, 0.5, 4.]]))": "torch.tensor([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]])",
    "StudentT(torch.tensor([3., 10.]), torch.tensor([0., 1.]), torch.tensor([1., 2.]))": "torch.tensor([0.5, -1.])",
    "Poisson(torch.tensor([0.5, 4.]))": "torch.tensor([0., 3.])",
    "Geometric(torch.tensor([0.3, 0.9]))": "torch.tensor([0., 3.])",
    "Binomial(torch.tensor([5., 10.]), torch.tensor([0.3, 0.9]))": "torch.tensor([2., 10.])",
    "OneHotCategorical(torch.tensor([[0.2, 0.8], [0.5, 0.5]]))": "torch.tensor([[0., 1.], [1., 0.]])",
    "MultivariateNormal(torch.tensor([0., 1.]), torch.tensor([[2., 0.5], [0.5, 1.]]))": "torch.tensor([[1., 1.], [0., -1.]])",
    "MultivariateNormal(torch.zeros(3, 2), scale_tril=torch.tensor([[1., 0.], [0.3, 2.]]))": "torch.ones(3, 2)",
    "MultivariateNormal(torch.zeros(2), precision_matrix=torch.tensor([[2., 0.5], [0.5, 1.]]))": "torch.ones(2)",
    "Independent(torch.distributions.Normal(torch.zeros(2, 3), torch.ones(2, 3)), 1)": "torch.full((2, 3), 0.5)",
}
for _d, _v in _DISTS.items():
    VALUE += [f"{D}{_d}.log_prob({_v})", f"{D}{_d}.batch_shape", f"{D}{_d}.event_shape",
              f"{D}{_d}.sample((4,)).shape", f"{D}{_d}.sample().dtype == {_v}.dtype"]
    if not _d.startswith(("Cauchy", "StudentT", "Geometric", "Binomial", "Poisson")):
        VALUE.append(f"{D}{_d}.entropy()")
    if not _d.startswith(("Cauchy", "StudentT", "Dirichlet", "MultivariateNormal(torch.zeros(2), precision")):
        VALUE += [f"{D}{_d}.mean", f"{D}{_d}.variance"]
    if _d.startswith(("Uniform", "Exponential", "Cauchy")):
        VALUE.append(f"{D}{_d}.cdf({_v})")
VALUE += [
    "torch.distributions.MultivariateNormal(torch.zeros(2), torch.tensor([[2., 0.5], [0.5, 1.]])).precision_matrix",
    "torch.distributions.MultivariateNormal(torch.zeros(2), torch.tensor([[2., 0.5], [0.5, 1.]])).scale_tril",
    "torch.distributions.MultivariateNormal(torch.zeros(2), torch.tensor([[2., 0.5], [0.5, 1.]])).rsample((5,)).shape",
    "torch.distributions.Uniform(0., 1.).rsample((2, 3)).shape", "torch.distributions.Chi2(torch.tensor([3.])).df",
]
for _p, _q in (("Uniform(torch.tensor([0.]), torch.tensor([2.]))", "Uniform(torch.tensor([-1.]), torch.tensor([3.]))"),
               ("Uniform(torch.tensor([0.]), torch.tensor([2.]))", "Uniform(torch.tensor([0.5]), torch.tensor([3.]))"),
               ("Exponential(torch.tensor([0.5, 2.]))", "Exponential(torch.tensor([1., 1.]))"),
               ("Laplace(torch.tensor([0.]), torch.tensor([1.]))", "Laplace(torch.tensor([1.]), torch.tensor([2.]))"),
               ("Gamma(torch.tensor([2., 0.5]), torch.tensor([1., 3.]))", "Gamma(torch.tensor([3., 1.]), torch.tensor([2., 2.]))"),
               ("Beta(torch.tensor([2., 0.5]), torch.tensor([3., 0.7]))", "Beta(torch.tensor([1., 1.]), torch.tensor([1., 2.]))"),
               ("Dirichlet(torch.tensor([1., 2., 3.]))", "Dirichlet(torch.tensor([2., 2., 2.]))"),
               ("Poisson(torch.tensor([0.5, 4.]))", "Poisson(torch.tensor([1., 1.]))"),
               ("MultivariateNormal(torch.tensor([0., 1.]), torch.tensor([[2., 0.5], [0.5, 1.]]))",
                "MultivariateNormal(torch.tensor([1., 0.]), torch.tensor([[1., 0.], [0., 3.]]))"),
               ("Independent(torch.distributions.Normal(torch.zeros(2, 3), torch.ones(2, 3)), 1)",
                "Independent(torch.distributions.Normal(torch.ones(2, 3), torch.full((2, 3), 2.)), 1)"),
               ("OneHotCategorical(torch.tensor([0.2, 0.8]))", "OneHotCategorical(torch.tensor([0.5, 0.5]))"),
               ("Normal(0., 1.)", "Normal(1., 2.)")):
    VALUE.append(f"torch.distributions.kl_divergence({D}{_p}, {D}{_q})")
    VALUE.append(f"torch.distributions.kl.kl_divergence({D}{_p}, {D}{_q})")
_TD = {
    "TransformedDistribution(torch.distributions.Normal(torch.zeros(2), torch.ones(2)), [torch.distributions.TanhTransform()])": "torch.tensor([0.5, -0.9])",
    "TransformedDistribution(torch.distributions.Normal(torch.zeros(2), torch.ones(2)), torch.distributions.ExpTransform())": "torch.tensor([0.5, 2.])",
    "TransformedDistribution(torch.distributions.Normal(torch.zeros(2), torch.ones(2)), [torch.distributions.SigmoidTransform(), torch.distributions.AffineTransform(1., 2.)])": "torch.tensor([1.5, 2.9])",
    "TransformedDistribution(torch.distributions.Normal(torch.zeros(2, 3), torch.ones(2, 3)), [torch.distributions.AffineTransform(torch.zeros(3), torch.tensor([1., 2., 3.]), event_dim=1)])": "torch.ones(2, 3)",
    "TransformedDistribution(torch.distributions.Exponential(torch.tensor([1., 2.])), [torch.distributions.PowerTransform(torch.tensor(0.5))])": "torch.tensor([0.5, 1.2])",
    "TransformedDistribution(torch.distributions.Normal(torch.zeros(2), torch.ones(2)), [torch.distributions.SoftplusTransform()])": "torch.tensor([0.5, 2.])",
    "TransformedDistribution(torch.distributions.Normal(torch.zeros(2), torch.ones(2)), [torch.distributions.ComposeTransform([torch.distributions.ExpTransform(), torch.distributions.AffineTransform(-1., 3.)])])": "torch.tensor([0.5, 2.])",
}
for _d, _v in _TD.items():
    VALUE += [f"{D}{_d}.log_prob({_v})", f"{D}{_d}.batch_shape", f"{D}{_d}.event_shape", f"{D}{_d}.sample((4,)).shape"]
VALUE += [
    "torch.distributions.TanhTransform()(torch.tensor([0.5]))", "torch.distributions.TanhTransform().inv(torch.tensor([0.5]))",
    "torch.distributions.TanhTransform().log_abs_det_jacobian(torch.tensor([0.5, -3.]), torch.tensor([0.5, -3.]).tanh())",
    "torch.distributions.SigmoidTransform().log_abs_det_jacobian(torch.tensor([0.5, -3.]), torch.tensor([0.5, -3.]).sigmoid())",
    "torch.distributions.ExpTransform().inv.log_abs_det_jacobian(torch.tensor([2.]), torch.tensor([2.]).log())",
    "torch.distributions.AffineTransform(1., torch.tensor([2., -3.])).log_abs_det_jacobian(torch.zeros(2), torch.zeros(2))",
    "torch.distributions.identity_transform(torch.tensor([3.]))",
    "torch.distributions.ComposeTransform([torch.distributions.ExpTransform(), torch.distributions.AffineTransform(1., 2.)]).inv(torch.tensor([3.]))",
]
GRAD = [
    "torch.copysign(x, torch.tensor([-1., 1., -1.], dtype=torch.float64))",
    "torch.pdist(x.reshape(3, 1).repeat(1, 2))", "torch.pdist(torch.stack([x, x]))",
    "torch.pdist(x.reshape(3, 1), 3)",
    "torch.bilinear(x.reshape(1, 3), x.reshape(1, 3), torch.ones(2, 3, 3, dtype=torch.float64))",
    "torch.igammac(torch.tensor([1., 2., 3.], dtype=torch.float64), x)",
    "(x * 1).squeeze_().unsqueeze_(0).t_() * torch.tensor([[1.], [2.], [3.]], dtype=torch.float64)",
    "(x * 2).atan_()",
    "(x * 1).cumsum_(0)", "x.sum_to_size(1)", "torch.fill(x, (x * 3).sum())",
    "torch.cumulative_trapezoid(x * x)",
    "torch.layer_norm(x, [3])", "torch.embedding(x.reshape(3, 1), torch.tensor([0, 0, 2]))",
    "torch.dropout(x, 0.5, False) * 3",
    "torch.diagonal_scatter(torch.zeros(3, 3, dtype=torch.float64), x * x)",
    "torch.as_strided_scatter(torch.stack([x, x]).reshape(-1), x[:2] * 5, (2,), (2,))",
    "torch.linalg.solve_triangular(torch.stack([x, x.flip(0) * 2, x + 5]), x.reshape(3, 1), upper=True)",
    "torch.linalg.matrix_exp(torch.stack([x, x * 0, x.flip(0)]) * 0.1)",
    "torch.linalg.householder_product(torch.stack([x, x * 0.5]).mT, torch.tensor([1.1, 0.4], dtype=torch.float64))",
    "torch.cholesky_solve(x.reshape(3, 1), torch.linalg.cholesky(torch.diag(x + 1) + 0.5))",
    "torch.linalg.lu_solve(*torch.linalg.lu_factor(torch.tensor([[1., 2., 0.], [3., 4., 1.], [0., 5., 2.]], dtype=torch.float64)), x.reshape(3, 1))",
    "torch.special.erfcx(x)",
    "torch.fft.hfftn(x.to(torch.complex128) * (1 + 1j)).abs()", "torch.fft.ihfftn(torch.stack([x, x * x])).abs()",
    "torch.distributions.Gamma(x, x * 0.5 + 1).log_prob(torch.tensor([1., 2., 0.5], dtype=torch.float64))",
    "torch.distributions.Beta(x, 2.0).entropy()", "torch.distributions.Dirichlet(x).log_prob(torch.tensor([0.2, 0.3, 0.5], dtype=torch.float64))",
    "torch.distributions.StudentT(x, 0.5, 2.0).log_prob(torch.tensor(1., dtype=torch.float64))",
    "torch.distributions.MultivariateNormal(x, torch.diag(x)).log_prob(torch.ones(3, dtype=torch.float64))",
    "torch.distributions.kl_divergence(torch.distributions.Gamma(x, 1.0), torch.distributions.Gamma(2.0, x))",
    "torch.distributions.Binomial(10, x / 4).log_prob(torch.tensor([2., 5., 10.], dtype=torch.float64))",
    "torch.distributions.Laplace(x, 1.5).rsample().detach() * 0 + torch.distributions.Laplace(x, 1.5).log_prob(x + 1)",
    "torch.distributions.TransformedDistribution(torch.distributions.Normal(x, 1.0), [torch.distributions.TanhTransform()]).log_prob(torch.tensor([0.1, -0.5, 0.9], dtype=torch.float64))",
    "torch.linalg.vander(x)", "torch.linalg.matrix_norm(torch.stack([x, x * x]), 1)", "torch.linalg.norm(torch.stack([x, -x]), float('inf'))",
    "torch.linalg.cond(torch.diag(x))", "torch.nuclear_norm(torch.stack([x, x.flip(0)]))",
    "torch.gru_cell(x.reshape(1, 3), torch.ones(1, 2, dtype=torch.float64), torch.linspace(-1, 1, 18, dtype=torch.float64).reshape(6, 3), torch.linspace(1, -1, 12, dtype=torch.float64).reshape(6, 2))",
    "torch.lstm_cell(x.reshape(1, 3), (torch.ones(1, 2, dtype=torch.float64), torch.ones(1, 2, dtype=torch.float64)), torch.linspace(-1, 1, 24, dtype=torch.float64).reshape(8, 3), torch.linspace(1, -1, 16, dtype=torch.float64).reshape(8, 2))[1]",
    "torch.adjoint(x.reshape(1, 3)) * torch.tensor([[1.], [2.], [3.]], dtype=torch.float64)",
]
# helpers the module cases use, run with ``torch`` bound (by the generator and by the test)
PRELUDE = """
def linear(i, o, bias=True):
    m = torch.nn.Linear(i, o, bias=bias)
    with torch.no_grad():
        m.weight.copy_(torch.linspace(-1.0, 1.5, i * o).reshape(o, i))
        if bias:
            m.bias.copy_(torch.linspace(0.5, -0.5, o))
    return m

def conv_bn():
    c = torch.nn.Conv2d(2, 3, 2)
    b = torch.nn.BatchNorm2d(3)
    with torch.no_grad():
        c.weight.copy_(torch.linspace(-1.0, 1.0, 24).reshape(3, 2, 2, 2))
        c.bias.copy_(torch.tensor([0.1, -0.2, 0.3]))
        b.running_mean.copy_(torch.tensor([0.5, -1.0, 0.0]))
        b.running_var.copy_(torch.tensor([2.0, 0.5, 1.0]))
        b.weight.copy_(torch.tensor([1.5, 0.5, -1.0]))
        b.bias.copy_(torch.tensor([0.0, 1.0, 2.0]))
    return c.eval(), b.eval()

def after(m, fn):
    fn(m)
    return m
"""
PRELUDE += PRELUDE_MORE
X = [1.5, 2.0, 3.5]
# cases whose expected gradient is torch's central finite difference, not torch's autograd: in torch
# 2.13 as_strided_scatter's backward is wrong (torch.autograd.gradcheck fails on it)
FINITE_DIFFERENCE = {"torch.as_strided_scatter(torch.stack([x, x]).reshape(-1), x[:2] * 5, (2,), (2,))"}


def finite_difference(expr, eps=1e-6):
    def f(v):
        return eval(expr, {"torch": torch, "x": v}).sum()
    x = torch.tensor(X, dtype=torch.float64)
    basis = torch.eye(len(X), dtype=torch.float64)
    return torch.stack([(f(x + eps * basis[i]) - f(x - eps * basis[i])) / (2 * eps) for i in range(len(X))])


def encode(v):
    if isinstance(v, torch.Tensor):
        c = v.detach()
        if c.is_complex():
            return {"tensor": [c.real.tolist(), c.imag.tolist()], "complex": True, "dtype": str(c.dtype),
                    "shape": list(c.shape)}
        return {"tensor": c.tolist(), "dtype": str(c.dtype), "shape": list(c.shape)}
    if isinstance(v, torch.Size):
        return {"size": list(v)}
    if isinstance(v, (tuple, list)):
        return {"seq": [encode(e) for e in v]}
    if isinstance(v, dict):
        return {"dict": {k: encode(e) for k, e in v.items()}}
    return {"py": v}


def main():
    exec(PRELUDE, globals())
    cases = {"prelude": PRELUDE, "value": [], "grad": []}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for expr in VALUE:
            cases["value"].append({"expr": expr, "expected": encode(eval(expr, globals()))})
        for expr in GRAD:
            x = torch.tensor(X, dtype=torch.float64, requires_grad=True)
            out = eval(expr, {"torch": torch, "x": x})
            out.sum().backward()
            grad = finite_difference(expr) if expr in FINITE_DIFFERENCE else x.grad
            cases["grad"].append({"expr": expr, "x": X, "value": encode(out), "grad": encode(grad)})
    OUT.write_text(json.dumps(cases, indent=1) + "\n")


if __name__ == "__main__":
    main()
