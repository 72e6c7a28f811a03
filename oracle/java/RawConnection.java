/*
 * One plain RESP2 connection for what Redisson has no API for: the `redis` and `eval` ops and the
 * naive teaching locks. It names itself with CLIENT SETNAME so the orchestrator can attribute its
 * MONITOR lines to the scenario client. Address "host:port", or "sentinel:<master>@host:port" (ask
 * that Sentinel for the current master before each reconnect); a MOVED reply is followed.
 */
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

final class RawConnection {
  record Status(String text) {}

  record Err(String text) {}

  private final String address;
  private final String name;
  private Socket socket;
  private InputStream in;
  private OutputStream out;
  private String connectedTo;

  RawConnection(String address, String name) {
    this.address = address;
    this.name = name;
  }

  synchronized Object command(List<String> argv) throws IOException {
    for (int attempt = 0; ; attempt++) {
      try {
        if (socket == null) open(target());
        Object r = send(argv);
        if (r instanceof Err e && e.text().startsWith("MOVED ") && attempt < 3) {
          close();
          open(e.text().split(" ")[2]);
          continue;
        }
        return r;
      } catch (IOException e) {
        close();
        if (attempt >= 1) throw e;
      }
    }
  }

  private String target() throws IOException {
    if (!address.startsWith("sentinel:")) return connectedTo != null ? connectedTo : address;
    String[] parts = address.substring("sentinel:".length()).split("@");
    for (String s : parts[1].split(",")) {
      try (Socket sock = connectTo(s)) {
        InputStream i = new BufferedInputStream(sock.getInputStream());
        write(sock.getOutputStream(), List.of("SENTINEL", "get-master-addr-by-name", parts[0]));
        Object r = read(i);
        if (r instanceof List<?> l && l.size() == 2) return l.get(0) + ":" + l.get(1);
      } catch (IOException e) {
        // try the next Sentinel
      }
    }
    throw new IOException("no Sentinel knows master " + parts[0]);
  }

  private static Socket connectTo(String hostPort) throws IOException {
    int c = hostPort.lastIndexOf(':');
    Socket s = new Socket(hostPort.substring(0, c), Integer.parseInt(hostPort.substring(c + 1)));
    s.setTcpNoDelay(true);
    return s;
  }

  private void open(String hostPort) throws IOException {
    socket = connectTo(hostPort);
    in = new BufferedInputStream(socket.getInputStream());
    out = socket.getOutputStream();
    connectedTo = hostPort;
    send(List.of("CLIENT", "SETNAME", name));
  }

  private void close() {
    try {
      if (socket != null) socket.close();
    } catch (IOException e) {
      // already gone
    }
    socket = null;
  }

  private Object send(List<String> argv) throws IOException {
    write(out, argv);
    return read(in);
  }

  private static void write(OutputStream o, List<String> argv) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.write(("*" + argv.size() + "\r\n").getBytes(StandardCharsets.UTF_8));
    for (String a : argv) {
      byte[] bytes = a.getBytes(StandardCharsets.UTF_8);
      b.write(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.UTF_8));
      b.write(bytes);
      b.write("\r\n".getBytes(StandardCharsets.UTF_8));
    }
    o.write(b.toByteArray());
    o.flush();
  }

  private static String line(InputStream i) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    int c;
    while ((c = i.read()) != '\r') {
      if (c < 0) throw new IOException("connection closed");
      b.write(c);
    }
    i.read();
    return b.toString(StandardCharsets.UTF_8);
  }

  private static Object read(InputStream i) throws IOException {
    int kind = i.read();
    if (kind < 0) throw new IOException("connection closed");
    String l = line(i);
    switch (kind) {
      case '+':
        return new Status(l);
      case '-':
        return new Err(l);
      case ':':
        return Long.parseLong(l);
      case '$': {
        int n = Integer.parseInt(l);
        if (n < 0) return null;
        byte[] data = i.readNBytes(n + 2);
        return new String(data, 0, n, StandardCharsets.UTF_8);
      }
      case '*': {
        int n = Integer.parseInt(l);
        if (n < 0) return null;
        List<Object> items = new ArrayList<>();
        for (int k = 0; k < n; k++) items.add(read(i));
        return items;
      }
      default:
        throw new IOException("bad reply byte " + kind);
    }
  }
}
