"""Client-side looks at a connection, for the tests of the HTTP server
(unit and functional)."""

import select


def closed_by_server(sock, wait):
    """Whether the server closed ``sock`` (seen within ``wait`` seconds:
    an end of stream or a reset)."""
    readable, _, _ = select.select([sock], [], [], wait)
    if not readable:
        return False
    try:
        return sock.recv(100) == b''
    except ConnectionResetError:
        return True
