"""A real Ray cluster on this machine for the tests: a head and one more worker node, one CPU
each, its client server on a free port (``ray://127.0.0.1:PORT``)."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass(frozen=True)
class RayCluster:
    client: str  # ray://127.0.0.1:PORT, the client server (Ray Client)
    gcs: str  # HOST:PORT, for a driver that joins the cluster (RAY_ADDRESS)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def two_node_cluster() -> Iterator[RayCluster]:
    """The cluster's addresses while it runs. Ray gives its nodes this machine's own
    address (it never advertises loopback); clients reach the client server on loopback."""
    from ray.cluster_utils import Cluster

    port = free_port()
    cluster = Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": 1, "include_dashboard": False, "ray_client_server_port": port},
    )
    try:
        cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        yield RayCluster(f"ray://127.0.0.1:{port}", cluster.address)
    finally:
        cluster.shutdown()
