"""Read an untrusted ``.npz`` within a size limit, without pickle.

``np.load`` trusts the archive: it decompresses whatever a member holds (a 2 MiB file can inflate to gigabytes)
and allocates whatever shape a member's header declares (a fake shape is a ``MemoryError``). :func:`read_npz`
first reads every member's ``.npy`` header (shape and dtype) and checks that the bytes those shapes need agree
with the sizes the zip declares and stay under ``max_bytes`` in all; only then does it read each member, never
past its declared size (the zip's CRC check catches a member that inflates to more). Any problem is a
:class:`NpzReadError` saying what is wrong.
"""

from __future__ import annotations

import math
import zipfile
import zlib
from pathlib import Path
from typing import IO

import numpy as np

MAX_NPZ_BYTES = 256 * 2**20
"""Default limit on the decompressed size of all arrays of an archive (the largest shipped actor is under 2 MiB)."""
MAX_NPZ_MEMBERS = 256
"""Default limit on the number of arrays (an actor of 64 hidden layers has 131)."""
PLAIN_KINDS = "biuf"
"""dtype kinds read: booleans, integers and floats (no objects, strings or records)."""


class NpzReadError(ValueError):
    """An archive that is not a plain ``.npz``, or that would exceed the size limit."""


def read_npz(
    path: str | Path, max_bytes: int = MAX_NPZ_BYTES, max_members: int = MAX_NPZ_MEMBERS
) -> dict[str, np.ndarray]:
    """The arrays of the ``.npz`` at ``path`` by name (read-only), read only after every header was checked."""
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
            if len(members) > max_members:
                raise NpzReadError(f"it holds {len(members)} members, more than the limit of {max_members}")
            declared = sum(member.file_size for member in members)
            if declared > max_bytes:
                raise NpzReadError(
                    f"its members decompress to {_mib(declared)}, more than the limit of {_mib(max_bytes)}"
                )
            layouts = {member.filename: _layout(archive, member) for member in members}
            return {name.removesuffix(".npy"): _read(archive, name, *layout) for name, layout in layouts.items()}
    except NpzReadError:
        raise
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError, ValueError) as error:
        raise NpzReadError(f"it is not a readable zip of .npy arrays ({type(error).__name__}: {error})") from error


def _layout(archive: zipfile.ZipFile, member: zipfile.ZipInfo) -> tuple[tuple[int, ...], np.dtype, bool, int]:
    """``(shape, dtype, fortran_order, header_bytes)`` of one member, checked against its declared size."""
    name = member.filename
    if not name.endswith(".npy"):
        raise NpzReadError(f"member {name!r} is not an .npy array")
    with archive.open(member) as stream:
        shape, fortran_order, dtype = _header(stream, name)
        header_bytes = stream.tell()
    if dtype.hasobject or dtype.kind not in PLAIN_KINDS or dtype.names is not None:
        raise NpzReadError(f"member {name!r} has dtype {dtype}; only plain numbers are read (no pickled objects)")
    data_bytes = math.prod(shape) * dtype.itemsize
    if header_bytes + data_bytes != member.file_size:
        raise NpzReadError(
            f"member {name!r} declares shape {shape} of {dtype} ({data_bytes} bytes) but the zip holds "
            f"{member.file_size - header_bytes} bytes of data for it"
        )
    return shape, dtype, fortran_order, header_bytes


def _header(stream: IO[bytes], name: str) -> tuple[tuple[int, ...], bool, np.dtype]:
    try:
        version = np.lib.format.read_magic(stream)
        if version == (1, 0):
            return np.lib.format.read_array_header_1_0(stream)
        return np.lib.format.read_array_header_2_0(stream)
    except (ValueError, SyntaxError, TypeError) as error:  # header text that is not an .npy header
        raise NpzReadError(f"member {name!r} has no valid .npy header ({error})") from error


def _read(
    archive: zipfile.ZipFile, name: str, shape: tuple[int, ...], dtype: np.dtype, fortran_order: bool, skip: int
) -> np.ndarray:
    """One member's array: its declared bytes and no more (reading to the end runs the zip's CRC check)."""
    with archive.open(name) as stream:
        stream.read(skip)
        data = stream.read(math.prod(shape) * dtype.itemsize)
        if stream.read(1):
            raise NpzReadError(f"member {name!r} holds more data than its header declares")
    if len(data) != math.prod(shape) * dtype.itemsize:
        raise NpzReadError(f"member {name!r} is truncated")
    return np.frombuffer(data, dtype=dtype).reshape(shape, order="F" if fortran_order else "C")


def _mib(size: int) -> str:
    return f"{size / 2**20:,.1f} MiB"
