#!/usr/bin/env python3
# PyTorch's CUDA kernels as a reference (TorchProcess.h): for
# skc-bench-kernels-cuda, which times them, and for the differential test,
# which compares their results with skc's CUDA kernels'.
#
# The caller starts this script with pipes. The script first writes one
# line: {"torch": "<version>", "device": "<name>"}, or {"unavailable":
# "<why>"} and exits. Then it answers each request line on stdin with one
# line:
#
#   time CASE N      times N calls of the case, one at a time between two
#                    CUDA events: {"ms": [t1, ..., tN]}
#   call CASE RESULT calls the case once and writes its results, copied
#                    back to the CPU with their strides, to the file RESULT:
#                    {"results": true}
#
# or {"error": "<message>"} when PyTorch raises. An error that leaves the
# CUDA context unusable (a device-side assert) adds "fatal": true; the next
# request goes to a fresh CUDA context (Note [Workers]).
#
# A case file is an 8-byte little-endian header length, a JSON header, and
# the bytes of its tensors' storages:
#
#   {"op": "aten::add", "overload": "Tensor", "args": [VALUE, ...]}
#
# where VALUE is null, {"int": N}, {"float": X or "nan"/"inf"/"-inf"},
# {"bool": B}, {"str": S}, {"ints": [...]}, {"floats": [...]},
# {"bools": [...]}, {"dtype": "float32"}, {"tensors": [TENSOR, ...]} or a
# TENSOR: {"dtype": ..., "sizes": [...], "strides": [...], "offset": N,
# "bytes": [begin, end]}, the storage's bytes within the data that follows
# the header. Tensors are rebuilt on the GPU with their strides. A result
# file has the same format, with {"results": [VALUE, ...]} as its header.
#
# SKC_TORCH_DEVICE=cpu runs the calls on PyTorch's CPU kernels instead, to
# try the protocol where there is no GPU.
import json
import os
import struct
import sys
import warnings

# An out= tensor resized, as the differential test's cases often ask: the
# test keeps skc's warnings off its log, and PyTorch's too.
warnings.filterwarnings("ignore")

DEVICE = os.environ.get("SKC_TORCH_DEVICE", "cuda")
# Whether PyTorch sees a GPU, asked of NVML, so that this process makes no
# CUDA context that its workers could not use after fork (Note [Workers]).
os.environ.setdefault("PYTORCH_NVML_BASED_CUDA_CHECK", "1")


def reply(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


try:
    import torch
except Exception as e:  # No PyTorch at all, or a broken install.
    reply({"unavailable": "cannot import torch: %s" % e})
    sys.exit(0)
if DEVICE == "cuda" and not torch.cuda.is_available():
    reply({"unavailable": "torch %s sees no CUDA device" % torch.__version__})
    sys.exit(0)


def synchronize():
    if DEVICE == "cuda":
        torch.cuda.synchronize()


def read_case(path):
    with open(path, "rb") as f:
        (length,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(length))
        data = f.read()
    return header, data


def make_tensor(t, data):
    if t is None:
        return None
    dtype = getattr(torch, t["dtype"])
    begin, end = t["bytes"]
    raw = bytearray(data[begin:end])
    if raw:
        storage = torch.frombuffer(raw, dtype=torch.uint8).view(dtype)
    else:
        storage = torch.empty(0, dtype=dtype)
    storage = storage.to(DEVICE, copy=True)  # Resizable, unlike the buffer.
    return torch.as_strided(storage, t["sizes"], t["strides"], t["offset"])


def make_arg(a, data):
    if a is None:
        return None
    if "sizes" in a:
        return make_tensor(a, data)
    ((kind, value),) = a.items()
    if kind == "int":
        return int(value)
    if kind == "float":
        return float(value)  # "nan", "inf" and "-inf" included.
    if kind == "bool":
        return bool(value)
    if kind == "str":
        return value
    if kind == "ints":
        return [int(v) for v in value]
    if kind == "floats":
        return [float(v) for v in value]
    if kind == "bools":
        return [bool(v) for v in value]
    if kind == "dtype":
        return getattr(torch, value)
    if kind == "tensors":
        return [make_tensor(t, data) for t in value]
    raise ValueError("unknown argument %r" % kind)


def prepare(path):
    """The case's operator, bound to its arguments: keyword-only ones (an
    out= tensor, `alpha`) by name, as Python requires."""
    header, data = read_case(path)
    name = header["op"].split("::", 1)[1]
    packet = getattr(torch.ops.aten, name)
    op = getattr(packet, header["overload"] or "default")
    positional, keywords = [], {}
    for schema, arg in zip(op._schema.arguments, header["args"]):
        value = make_arg(arg, data)
        if schema.kwarg_only:
            keywords[schema.name] = value
        else:
            positional.append(value)
    return lambda: op(*positional, **keywords)


def time_case(path, calls):
    call = prepare(path)
    for _ in range(3):  # Warm up: kernels' first launches, allocations.
        call()
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(calls):
        start.record()
        call()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return {"ms": times}


def write_tensor(t, chunks, offset):
    if t is None:
        return None
    # The whole storage, so that the strides and the offset hold.
    raw = bytes(t.untyped_storage().cpu())
    chunks.append(raw)
    entry = {
        "dtype": str(t.dtype).split(".", 1)[1],
        "sizes": list(t.shape),
        "strides": list(t.stride()),
        "offset": t.storage_offset(),
        "bytes": [offset[0], offset[0] + len(raw)],
    }
    offset[0] += len(raw)
    return entry


def write_value(v, chunks, offset):
    if v is None:
        return None
    if isinstance(v, torch.Tensor):
        return write_tensor(v, chunks, offset)
    if isinstance(v, (list, tuple)):
        return {"tensors": [write_tensor(t, chunks, offset) for t in v]}
    if isinstance(v, bool):
        return {"bool": v}
    if isinstance(v, int):
        return {"int": v}
    if isinstance(v, float):
        return {"float": v if v == v and abs(v) != float("inf") else str(v)}
    raise ValueError("a result of type %s" % type(v).__name__)


def call_case(path, out):
    result = prepare(path)()
    synchronize()
    # An operator of several results returns a tuple; of a Tensor[], a list.
    if not isinstance(result, tuple):
        result = (result,)
    chunks, offset = [], [0]
    values = [write_value(v, chunks, offset) for v in result]
    header = json.dumps({"results": values}).encode()
    with open(out, "wb") as f:
        f.write(struct.pack("<Q", len(header)))
        f.write(header)
        for c in chunks:
            f.write(c)
    return {"results": True}


def is_fatal(e):
    # After a device-side assert or an illegal address, every later CUDA
    # call of the process fails too; PyTorch reports each as "CUDA error:".
    return "CUDA error" in str(e)


# Note [Workers]
# A device-side assert (PyTorch's CUDA kernels assert on an index out of
# range) leaves the process's CUDA context unusable, and the differential
# test's cases hold many such indices. Importing PyTorch again for each
# would take seconds; so this process imports it once, without touching
# the GPU, and forks workers that each make their own CUDA context and
# serve requests until one is fatal. A spare worker makes its context while
# another serves, and takes over the next request when that one exits.
# Only one worker reads stdin at a time, and the caller sends a request
# only after the reply to the one before, so no request is lost.

EXIT_FATAL = 3  # A worker's exit after a fatal error it has replied to.


def serve(hello):
    if hello:
        name = torch.cuda.get_device_name(0) if DEVICE == "cuda" else DEVICE
        reply({"torch": torch.__version__, "device": name})
    for line in sys.stdin:
        verb, path, arg = line.split()
        try:
            if verb == "time":
                reply(time_case(path, int(arg)))
            else:
                reply(call_case(path, arg))
        except Exception as e:
            message = "%s: %s" % (type(e).__name__, e)
            if is_fatal(e):
                reply({"error": message, "fatal": True})
                os._exit(EXIT_FATAL)
            reply({"error": message})
        if verb == "time" and DEVICE == "cuda":
            torch.cuda.empty_cache()
    os._exit(0)


def spawn():
    """A worker with its CUDA context made, waiting for a byte on a pipe:
    b"h" to say hello first, b"s" to serve at once."""
    go_read, go_write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(go_write)
        try:
            if DEVICE == "cuda":
                torch.empty(1, device="cuda")
            how = os.read(go_read, 1)
            if how:
                serve(how == b"h")
        finally:
            os._exit(0)
    os.close(go_read)
    return pid, go_write


def main():
    # libtorch's warnings (an out= tensor resized) and the kernels' assert
    # messages go to stderr, which the caller's log would fill up with.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    active, go = spawn()
    os.write(go, b"h")
    spare = spawn()
    while True:
        _, status = os.waitpid(active, 0)
        if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
            break  # The caller closed stdin.
        if not (os.WIFEXITED(status) and os.WEXITSTATUS(status) == EXIT_FATAL):
            # Killed while serving a request: answer it on its behalf.
            reply({"error": "PyTorch's worker died (status %d)" % status,
                   "fatal": True})
        active, go = spare
        os.write(go, b"s")
        spare = spawn()
    os.close(spare[1])  # The spare exits when its pipe closes.
    os.waitpid(spare[0], 0)


main()
