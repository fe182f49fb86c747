#!/usr/bin/env python3
# PyTorch's side of skc-bench-kernels-cuda (bench/KernelCUDATorchBench.cpp):
# times one operator call per request on the GPU, with CUDA events, as the
# benchmark times skc's side.
#
# The benchmark starts this script with pipes. The script first writes one
# line: {"torch": "<version>", "device": "<name>"}, or {"unavailable":
# "<why>"} and exits. Then, for each request line on stdin (the path of a
# case file, and the number of timed calls), it writes one line:
# {"ms": [t1, t2, ...]} or {"error": "<message>"}.
#
# A case file is an 8-byte little-endian header length, a JSON header, and
# the bytes of its tensors' storages:
#
#   {"op": "aten::add", "overload": "Tensor", "args": [ARG, ...]}
#
# where ARG is null, {"int": N}, {"float": X or "nan"/"inf"/"-inf"},
# {"bool": B}, {"str": S}, {"ints": [...]}, {"floats": [...]},
# {"bools": [...]}, {"dtype": "float32"}, {"tensors": [TENSOR, ...]} or a
# TENSOR: {"dtype": ..., "sizes": [...], "strides": [...], "offset": N,
# "bytes": [begin, end]}, the storage's bytes within the data that follows
# the header. Tensors are rebuilt on the GPU with their strides.
import json
import struct
import sys


def reply(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


try:
    import torch
except Exception as e:  # No PyTorch at all, or a broken install.
    reply({"unavailable": "cannot import torch: %s" % e})
    sys.exit(0)
if not torch.cuda.is_available():
    reply({"unavailable": "torch %s sees no CUDA device" % torch.__version__})
    sys.exit(0)


def read_case(path):
    with open(path, "rb") as f:
        (length,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(length))
        data = f.read()
    return header, data


def to_float(x):
    return float(x)  # "nan", "inf" and "-inf" included.


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
    storage = storage.to("cuda")
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
        return to_float(value)
    if kind == "bool":
        return bool(value)
    if kind == "str":
        return value
    if kind == "ints":
        return [int(v) for v in value]
    if kind == "floats":
        return [to_float(v) for v in value]
    if kind == "bools":
        return [bool(v) for v in value]
    if kind == "dtype":
        return getattr(torch, value)
    if kind == "tensors":
        return [make_tensor(t, data) for t in value]
    raise ValueError("unknown argument %r" % kind)


def time_case(path, calls):
    header, data = read_case(path)
    name = header["op"].split("::", 1)[1]
    packet = getattr(torch.ops.aten, name)
    op = getattr(packet, header["overload"] or "default")
    args = [make_arg(a, data) for a in header["args"]]
    del data
    for _ in range(3):  # Warm up: kernels' first launches, allocations.
        op(*args)
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(calls):
        start.record()
        op(*args)
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return times


def main():
    reply({"torch": torch.__version__,
           "device": torch.cuda.get_device_name(0)})
    for line in sys.stdin:
        path, calls = line.split()
        try:
            reply({"ms": time_case(path, int(calls))})
        except Exception as e:
            reply({"error": "%s: %s" % (type(e).__name__, e)})
        torch.cuda.empty_cache()


main()
