"""The call-time checks of GemmFunction without a GPU
(test/Python/api-calls.test): fake arrays with __cuda_array_interface__ or
__dlpack__ against a function loaded parse-only; plan() runs every check a
call runs and says what would launch."""
import ctypes
import sys

import gemm_mlir
from gemm_mlir import Problem

cache = sys.argv[1]


class Cai:
    """A device array as CuPy describes one (__cuda_array_interface__ v3;
    strides in bytes, None for C-contiguous)."""

    def __init__(self, shape, typestr="<f2", strides=None, ptr=1 << 30,
                 readonly=False):
        self.__cuda_array_interface__ = {
            "shape": shape, "typestr": typestr, "data": (ptr, readonly),
            "strides": strides, "version": 3}


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device_type", ctypes.c_int32),
                ("device_id", ctypes.c_int32), ("ndim", ctypes.c_int32),
                ("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64),
                ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p)]


class DLPack:
    """A DLPack producer (a DLManagedTensor in a "dltensor" capsule)."""

    def __init__(self, shape, code=2, bits=16, strides=None, device=(2, 0),
                 ptr=1 << 30, offset=0):
        self.device = device
        self.shape = (ctypes.c_int64 * len(shape))(*shape)
        self.strides = ((ctypes.c_int64 * len(strides))(*strides)
                        if strides else None)
        self.t = DLTensor(ptr, device[0], device[1], len(shape), code, bits,
                          1, self.shape, self.strides, offset, None, None)
        self.streams = []

    def __dlpack_device__(self):
        return self.device

    def __dlpack__(self, stream=None):
        self.streams.append(stream)
        new = ctypes.pythonapi.PyCapsule_New
        new.restype = ctypes.py_object
        new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
        return new(ctypes.addressof(self.t), b"dltensor", None)


def case(label, fn):
    try:
        out = fn()
        if isinstance(out, dict):
            out = {k: out[k] for k in ("kernel", "m", "n", "k", "batch",
                                       "slices", "pack_a", "pack_b",
                                       "launches")}
        print(f"{label}: ok {out}")
    except Exception as e:  # noqa: BLE001 (the test prints every kind)
        print(f"{label}: {type(e).__name__}: {e}")


def load(problem):
    folder = gemm_mlir.api.compile_to_folder(problem.mlir, "sm_90a",
                                             cache_dir=cache, fmt="isa")
    return gemm_mlir.load(folder, device=False, problem=problem)


f = load(Problem(layout="tn", a="f16", epilogue="bias_gelu"))
M, N, K = 300, 200, 96
A, B, C = Cai((M, K)), Cai((N, K)), Cai((M, N))
bias = Cai((N,), "<f4")

case("fits", lambda: f.plan(A, B, C, bias))
case("padded rows",
     lambda: f.plan(Cai((M, K), strides=((K + 8) * 2, 2)), B, C, bias))
case("large, odd leading dimension", lambda: f.plan(
    Cai((4096, 4095), strides=(4095 * 2, 2)), Cai((4096, 4095)),
    Cai((4096, 4096)), Cai((4096,), "<f4")))
case("empty", lambda: f.plan(Cai((0, K)), B, Cai((0, N)), bias))
case("dlpack", lambda: f.plan(DLPack((M, K)), B, C, DLPack((N,), bits=32)))
case("dlpack strided", lambda: f.plan(
    DLPack((M, K), strides=(K + 8, 1)), B, C, bias))

# Types.
case("A dtype", lambda: f.plan(Cai((M, K), "<f4"), B, C, bias))
case("bias dtype", lambda: f.plan(A, B, C, Cai((N,), "<f2")))
case("unknown typestr", lambda: f.plan(A, Cai((N, K), "<V2"), C, bias))
case("dlpack dtype", lambda: f.plan(DLPack((M, K), code=4), B, C, bias))
case("not an array", lambda: f.plan([[1.0]], B, C, bias))
case("count", lambda: f.plan(A, B, C))
case("cpu dlpack", lambda: f.plan(DLPack((M, K), device=(1, 0)), B, C, bias))

# Shapes (the runtime's checks, the same in a call).
case("K", lambda: f.plan(A, Cai((N, K + 1)), C, bias))
case("M", lambda: f.plan(A, B, Cai((M + 1, N)), bias))
case("N", lambda: f.plan(A, Cai((N - 1, K)), C, bias))
case("bias length", lambda: f.plan(A, B, C, Cai((M,), "<f4")))
case("rank", lambda: f.plan(Cai((2, M, K)), B, C, bias))

# Strides.
case("transposed A", lambda: f.plan(Cai((M, K), strides=(2, M * 2)), B, C,
                                    bias))
case("strided bias", lambda: f.plan(A, B, C, Cai((N,), "<f4", strides=(8,))))
case("byte strides", lambda: f.plan(Cai((M, K), strides=(K * 2 + 1, 2)), B,
                                    C, bias))
case("negative strides", lambda: f.plan(Cai((M, K), strides=(-K * 2, 2)), B,
                                        C, bias))
case("overlapping C", lambda: f.plan(A, B, Cai((M, N), strides=(N, 2)), bias))
case("broadcast A rows", lambda: f.plan(Cai((M, K), strides=(0, 2)), B, C,
                                        bias))
case("read-only C", lambda: f.plan(A, B, Cai((M, N), readonly=True), bias))
case("dlpack transposed",
     lambda: f.plan(DLPack((M, K), strides=(1, M)), B, C, bias))

# A call on a parse-only module checks, then cannot launch.
case("call", lambda: f(A, B, C, bias))
case("call on a stream", lambda: f(A, B, C, bias, stream=7))
case("bad stream", lambda: f(A, B, C, bias, stream="s"))
producer = DLPack((M, K))
case("dlpack stream", lambda: (f.plan(producer, B, C, bias),
                               f(producer, B, C, bias, stream=7)))
print("dlpack streams asked:", producer.streams)

# Scalars and batches.
g = load(Problem(layout="nn", a="f16", epilogue="scale_beta", batched=True))
a3, b3, c3 = Cai((4, M, K)), Cai((4, K, N)), Cai((4, M, N))


class Number:
    def __float__(self):
        return 0.5


case("scalars", lambda: g.plan(a3, b3, c3, 2.0, 1))
case("scalar like", lambda: g.plan(a3, b3, c3, Number(), 0.0))
case("scalar type", lambda: g.plan(a3, b3, c3, "2", 0.0))
case("batch", lambda: g.plan(a3, Cai((3, K, N)), c3, 1.0, 0.0))
case("choose", lambda: g.choose(M, N, K, 4))
# A B whose rows rule out 16-byte copies (odd N): the gemv-mma member that
# reads it in place; the same sizes on aligned operands: decode-64x128's
# wgmma tile on cp.async (decode-wgmma-n).
case("choose unaligned", lambda: g.choose(8, 8577, 4096, 1, b_aligned=False))
case("choose aligned", lambda: g.choose(8, 8577, 4096, 1))
print("extras:", g.extras)
print("repr:", repr(g))

# The torch fast path, with a stand-in torch module (CI has no torch): torch
# imported after the first calls is picked up; the launch is replaced by a
# recorder to see the stream each call would be enqueued on.
import types  # noqa: E402

fake = types.ModuleType("torch")


class Dtype:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"torch.{self.name}"


for n in ("float16", "bfloat16", "float32", "float64", "int8", "int32"):
    setattr(fake, n, Dtype(n))


class Tensor:
    def __init__(self, shape, dtype=fake.float16, strides=None, device=0,
                 ptr=1 << 30):
        self.shape = shape
        self.dtype = dtype
        if strides is None:
            strides, step = [], 1
            for size in reversed(shape):
                strides.insert(0, step)
                step *= size
        self._strides = tuple(strides)
        self._contiguous = strides is None or self._strides == tuple(strides)
        self._device = device
        self.is_cuda = device != "cpu"
        self.device = "cpu" if device == "cpu" else f"cuda:{device}"
        self._ptr = ptr

    def stride(self):
        return self._strides

    def is_contiguous(self):
        s, step = [], 1
        for size in reversed(self.shape):
            s.insert(0, step)
            step *= size
        return tuple(s) == self._strides

    def get_device(self):
        return -1 if self._device == "cpu" else self._device

    def data_ptr(self):
        return self._ptr


class Parameter(Tensor):
    pass


fake.Tensor = Tensor
fake._C = types.SimpleNamespace(
    _cuda_getCurrentRawStream=lambda device: 1000 + device)
sys.modules["torch"] = fake

ta, tb, tc = Tensor((M, K)), Tensor((N, K)), Tensor((M, N))
tbias = Tensor((N,), fake.float32)
case("torch", lambda: f.plan(ta, tb, tc, tbias))
case("torch subclass", lambda: f.plan(Parameter((M, K)), tb, tc, tbias))
case("torch and cai", lambda: f.plan(ta, B, tc, bias))
case("torch cpu", lambda: f.plan(Tensor((M, K), device="cpu"), tb, tc, tbias))
case("torch dtype", lambda: f.plan(ta, Tensor((N, K), fake.float32), tc,
                                   tbias))
case("torch transposed", lambda: f.plan(Tensor((M, K), strides=(1, M)), tb,
                                        tc, tbias))
case("torch rank", lambda: f.plan(ta, tb, tc, Tensor((1, N), fake.float32)))
case("torch overlapping C",
     lambda: f.plan(ta, tb, Tensor((M, N), strides=(0, 1)), tbias))
case("torch padded C",
     lambda: f.plan(ta, tb, Tensor((M, N), strides=(N + 8, 1)), tbias))
case("torch devices", lambda: f.plan(ta, Tensor((N, K), device=1), tc, tbias))
case("cai after torch device 1",
     lambda: f.plan(Tensor((M, K), device=1), DLPack((N, K), device=(2, 0)),
                    tc, tbias))

# The recorder replaces the launch on both call paths: the general one and
# the one specialized to the function's parameters for torch tensors.
f._launch = lambda argv, handle: ("launch", handle, len(argv))
gemm_mlir.api._install_fast_path(f)
print("fast path:", type(f).__call__ is not gemm_mlir.GemmFunction.__call__,
      isinstance(f, gemm_mlir.GemmFunction))


class TorchStream:
    cuda_stream = 77


class CupyStream:
    ptr = 88


class ProtocolStream:
    def __cuda_stream__(self):
        return (0, 99)


case("stream: torch current", lambda: f(ta, tb, tc, tbias))
case("stream: torch current on device 1", lambda: f(
    Tensor((M, K), device=1), Tensor((N, K), device=1),
    Tensor((M, N), device=1), Tensor((N,), fake.float32, device=1)))
case("stream: int", lambda: f(ta, tb, tc, tbias, stream=5))
case("stream: torch.cuda.Stream", lambda: f(ta, tb, tc, tbias,
                                            stream=TorchStream()))
case("stream: cupy", lambda: f(ta, tb, tc, tbias, stream=CupyStream()))
case("stream: __cuda_stream__", lambda: f(ta, tb, tc, tbias,
                                          stream=ProtocolStream()))
case("stream: cai arrays", lambda: f(A, B, C, bias))
case("stream: bool", lambda: f(ta, tb, tc, tbias, stream=True))

# Calls the fast path does not take fall back to the checks of the general
# one: the same errors as plan() gives.
case("call: torch cpu", lambda: f(Tensor((M, K), device="cpu"), tb, tc, tbias))
case("call: torch dtype", lambda: f(ta, tb, tc, Tensor((N,))))
case("call: torch transposed B",
     lambda: f(ta, Tensor((N, K), strides=(1, N)), tc, tbias))
case("call: K = 1, any inner stride", lambda: f(
    Tensor((M, 1), strides=(1, 5)), Tensor((N, 1)), tc, tbias))
case("call: padded C", lambda: f(ta, tb, Tensor((M, N), strides=(N + 8, 1)),
                                 tbias))
case("call: count", lambda: f(ta, tb, tc))
case("call: overlapping C",
     lambda: f(ta, tb, Tensor((M, N), strides=(N // 2, 1)), tbias))

# A batched function's fast path: C's batches apart too.
g._launch = lambda argv, handle: ("launch", handle, len(argv))
g._resolve_torch()
t3 = [Tensor((4, M, K)), Tensor((4, K, N)), Tensor((4, M, N))]
case("call: batched", lambda: g(*t3, 1.0, 0.0))
case("call: batched, int scalar", lambda: g(*t3, 1, 0.0))
case("call: batched, overlapping batches", lambda: g(
    t3[0], t3[1], Tensor((4, M, N), strides=(N, N, 1)), 1.0, 0.0))
case("call: batched, scalar type", lambda: g(*t3, None, 0.0))
