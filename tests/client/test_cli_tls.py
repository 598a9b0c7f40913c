"""The `accelplan` CLI against a TLS and an mTLS accelplan-server: the
channel verifies the server with --tls_ca, presents --tls_cert/--tls_key
for mutual TLS, and a plaintext or certificate-less client is refused
(exit 3, server unavailable)."""

import os
import shutil
import socket
import subprocess
import time

import pytest

BUILD = os.environ["ACCELPLAN_BUILD_DIR"]
CLI = os.path.join(BUILD, "accelplan")
SERVER = os.path.join(BUILD, "accelplan-server")
CATALOG = os.path.join(BUILD, "catalog.db")

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None,
                                reason="openssl is not installed")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def openssl(*args, cwd):
    subprocess.run(["openssl", *args], cwd=cwd, check=True,
                   capture_output=True, timeout=60)


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    """A CA, a server certificate for 127.0.0.1/localhost and a client
    certificate, all signed by the CA."""
    d = str(tmp_path_factory.mktemp("tls"))
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
            "-subj", "/CN=accelplan-test-ca", "-keyout", "ca.key",
            "-out", "ca.pem", cwd=d)
    with open(os.path.join(d, "san.ext"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    for name in ("server", "client"):
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj",
                "/CN=%s" % ("localhost" if name == "server" else "client"),
                "-keyout", name + ".key", "-out", name + ".csr", cwd=d)
        openssl("x509", "-req", "-in", name + ".csr", "-CA", "ca.pem",
                "-CAkey", "ca.key", "-CAcreateserial", "-days", "2",
                "-extfile", "san.ext", "-out", name + ".pem", cwd=d)
    return {k: os.path.join(d, k) for k in (
        "ca.pem", "server.pem", "server.key", "client.pem", "client.key")}


def start_server(certs, mutual):
    port = free_port()
    args = [SERVER, "--listen=127.0.0.1:%d" % port,
            "--metrics_listen=127.0.0.1:%d" % free_port(),
            "--catalog=" + CATALOG, "--drain_delay_seconds=0",
            "--tls_cert=" + certs["server.pem"],
            "--tls_key=" + certs["server.key"]]
    if mutual:
        args.append("--tls_client_ca=" + certs["ca.pem"])
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    return process, "127.0.0.1:%d" % port


def cli(target, *extra):
    return subprocess.run([CLI, "catalog", "--server", target,
                           "--timeout_seconds=3", *extra],
                          capture_output=True, text=True, timeout=60,
                          check=False)


def wait_ready(process, target, tls_args):
    deadline = time.time() + 30
    while time.time() < deadline:
        if process.poll() is not None:
            pytest.fail("server exited: " + process.stderr.read().decode())
        if cli(target, *tls_args).returncode == 0:
            return
        time.sleep(0.2)
    pytest.fail("TLS server never answered")


def stop(process):
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()


def test_tls_server_needs_a_tls_client(certs):
    process, target = start_server(certs, mutual=False)
    try:
        wait_ready(process, target, ["--tls_ca=" + certs["ca.pem"]])
        ok = cli(target, "--tls_ca=" + certs["ca.pem"])
        assert ok.returncode == 0, ok.stderr
        assert '"catalogVersion"' in ok.stdout
        plaintext = cli(target)
        assert plaintext.returncode == 3, plaintext.stderr
    finally:
        stop(process)


def test_mutual_tls_needs_a_client_certificate(certs):
    process, target = start_server(certs, mutual=True)
    mtls = ["--tls_ca=" + certs["ca.pem"], "--tls_cert=" + certs["client.pem"],
            "--tls_key=" + certs["client.key"]]
    try:
        wait_ready(process, target, mtls)
        assert cli(target, *mtls).returncode == 0
        without_cert = cli(target, "--tls_ca=" + certs["ca.pem"])
        assert without_cert.returncode == 3, without_cert.stderr
    finally:
        stop(process)


def test_half_a_client_key_pair_is_bad_input(certs):
    result = cli("127.0.0.1:1", "--tls_cert=" + certs["client.pem"])
    assert result.returncode == 2, result.stderr
    assert "--tls_key" in result.stderr
