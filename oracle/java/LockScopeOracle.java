/*
 * LockScope oracle client: one JVM per scenario client. It runs every thread of that client's
 * program on the real Redisson client (compiled at run time against whatever Redisson classpath
 * the user gives, see docs/oracle.md) and reports, as JSON lines on stdout, each call's start and
 * outcome with times relative to the shared time 0. The Node orchestrator (src/oracle/) drives it
 * over stdin: "go <epochMillis>" (the barrier: time 0 for every JVM), "interrupt <thread>",
 * "cancel <thread>" (Future.cancel of the acquire it waits for), "quit".
 *
 * Only APIs that Redisson 3.11.6, 3.27.2 and 4.7.0 all have are called directly; the rest
 * (FencedLock, SpinLock, the 3.27+ config setters) go through reflection so one source compiles
 * against every release.
 */
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Collection;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.ClusterServersConfig;
import org.redisson.config.Config;
import org.redisson.config.SentinelServersConfig;
import org.redisson.config.SingleServerConfig;

public final class LockScopeOracle {
  static final ObjectMapper JSON = new ObjectMapper();
  static final JsonNodeFactory NF = JsonNodeFactory.instance;
  static JsonNode cfg;
  static String clientId;
  /** one Redisson client per master in "independent", else one */
  static final List<RedissonClient> redissons = new ArrayList<>();
  static RawConnection raw;
  static volatile long t0Nanos = Long.MIN_VALUE;
  static final Map<Integer, Thread> threads = new ConcurrentHashMap<>();
  static final Map<Integer, ThreadRunner> runners = new ConcurrentHashMap<>();

  public static void main(String[] args) throws Exception {
    cfg = JSON.readTree(new File(args[0]));
    clientId = cfg.get("client").asText();
    checkRelease(cfg.get("release").asText());
    connect();
    warmUp();
    forgetWhatTheWarmUpTaught();
    emit(obj("ev", "ready"));
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      String[] w = line.trim().split(" ");
      if (w[0].equals("go")) start(Long.parseLong(w[1]));
      else if (w[0].equals("interrupt")) {
        Thread t = threads.get(Integer.parseInt(w[1]));
        emit(obj("ev", "interrupt").put("thread", Integer.parseInt(w[1])).put("t", now()));
        if (t != null) t.interrupt();
      } else if (w[0].equals("cancel")) {
        ThreadRunner r = runners.get(Integer.parseInt(w[1]));
        java.util.concurrent.Future<?> f = r == null ? null : r.pending;
        boolean done = f != null && f.cancel(true);
        emit(obj("ev", "cancel").put("thread", Integer.parseInt(w[1])).put("t", now()).put("cancelled", done));
      } else if (w[0].equals("quit")) break;
    }
    System.out.flush();
    Runtime.getRuntime().halt(0);
  }

  /** The jar's Bundle-Version must be the release the orchestrator asked for. */
  static void checkRelease(String want) throws Exception {
    String path = Redisson.class.getProtectionDomain().getCodeSource().getLocation().getPath();
    String got = null;
    if (path.endsWith(".jar")) {
      try (JarFile jar = new JarFile(path)) {
        got = jar.getManifest().getMainAttributes().getValue("Bundle-Version");
      }
    }
    if (got == null || !got.replace("-SNAPSHOT", "").equals(want)) {
      emit(obj("ev", "fatal").put("message", "the Redisson jar on the classpath is " + got + ", not " + want + " (" + path + ")"));
      System.exit(3);
    }
    emit(obj("ev", "version").put("bundle", got));
  }

  // ------------------------------------------------------------------ connections

  static void connect() throws Exception {
    String mode = cfg.get("mode").asText();
    JsonNode r = cfg.get("redisson");
    List<String> addrs = new ArrayList<>();
    cfg.get("addresses").forEach(a -> addrs.add(a.asText()));
    if (mode.equals("independent")) {
      for (String a : addrs) redissons.add(create(r, mode, List.of(a)));
    } else {
      redissons.add(create(r, mode, addrs));
    }
    raw = new RawConnection(cfg.get("rawAddress").asText(), clientId);
  }

  static RedissonClient create(JsonNode r, String mode, List<String> addrs) throws Exception {
    Config c = new Config();
    c.setCodec(StringCodec.INSTANCE);
    c.setLockWatchdogTimeout(r.get("lockWatchdogTimeout").asLong());
    callIf(c, "setCheckLockSyncedSlaves", boolean.class, r.get("checkLockSyncedSlaves").asBoolean());
    callIf(c, "setSlavesSyncTimeout", long.class, r.get("slavesSyncTimeout").asLong());
    Object base;
    if (mode.equals("sentinel")) {
      SentinelServersConfig s = c.useSentinelServers().setMasterName(cfg.get("masterName").asText());
      for (String a : addrs) s.addSentinelAddress(a);
      callIf(s, "setCheckSentinelsList", boolean.class, false);
      base = s;
    } else if (mode.equals("cluster")) {
      ClusterServersConfig s = c.useClusterServers();
      for (String a : addrs) s.addNodeAddress(a);
      base = s;
    } else {
      SingleServerConfig s = c.useSingleServer().setAddress(addrs.get(0));
      base = s;
    }
    callIf(base, "setClientName", String.class, clientId);
    callIf(base, "setRetryAttempts", int.class, r.get("retryAttempts").asInt());
    setRetryDelay(base, r.get("retryDelayMs").asInt());
    callIf(base, "setTimeout", int.class, r.get("timeoutMs").asInt());
    callIf(base, "setSubscriptionTimeout", int.class, r.get("subscriptionTimeoutMs").asInt());
    callIf(base, "setSubscriptionConnectionPoolSize", int.class, r.get("subscriptionConnectionPoolSize").asInt());
    callIf(base, "setSubscriptionsPerConnection", int.class, r.get("subscriptionsPerConnection").asInt());
    // a short response timeout (RedLock scenarios use 50 ms) can make the first connection's
    // CLIENT SETNAME time out on a busy machine: that is start-up, not the scenario, so try again
    for (int attempt = 1; ; attempt++) {
      try {
        return Redisson.create(c);
      } catch (RuntimeException e) {
        if (attempt >= 20) throw e;
        Thread.sleep(100);
      }
    }
  }

  /**
   * The scenario's retryDelayMs as the release reads it. 3.48+ (BaseConfig.setRetryDelay) waits
   * EqualJitterDelay(retryDelayMs, 2 s) between attempts, its default shape; its deprecated
   * setRetryInterval would replace that with a ConstantDelay, which the model does not run. Older
   * releases have only the constant retryInterval.
   */
  static void setRetryDelay(Object base, int ms) throws Exception {
    Class<?> strategy;
    Class<?> jitter;
    try {
      strategy = Class.forName("org.redisson.config.DelayStrategy");
      jitter = Class.forName("org.redisson.config.EqualJitterDelay");
    } catch (ClassNotFoundException e) {
      callIf(base, "setRetryInterval", int.class, ms);
      return;
    }
    Object delay = jitter.getConstructor(java.time.Duration.class, java.time.Duration.class)
        .newInstance(java.time.Duration.ofMillis(ms), java.time.Duration.ofSeconds(2));
    if (!callIf(base, "setRetryDelay", strategy, delay)) callIf(base, "setRetryInterval", int.class, ms);
  }

  static boolean callIf(Object target, String name, Class<?> type, Object value) {
    try {
      Method m = target.getClass().getMethod(name, type);
      m.invoke(target, value);
      return true;
    } catch (NoSuchMethodException e) {
      return false;
    } catch (Exception e) {
      throw new RuntimeException(e);
    }
  }

  // ------------------------------------------------------------------ warm-up

  /**
   * Runs each lock type the scenario uses once on a key of its own, with an explicit lease so no
   * watchdog is left running, so that time 0 does not include class loading and JIT (a cold JVM
   * is 40-70 ms late on its first call). The orchestrator flushes every node afterwards.
   */
  static void warmUp() throws Exception {
    try {
      warmUpCalls();
    } catch (Exception e) {
      // a warm-up call that failed (a short response timeout on a busy machine) only warms less
    }
  }

  static void warmUpCalls() throws Exception {
    String prefix = "oracle-warm-" + clientId + "-";
    for (int i = 0; i < redissons.size(); i++) {
      RedissonClient rc = redissons.get(i);
      RLock l = rc.getLock(prefix + "rlock-" + i);
      l.lock(5000, TimeUnit.MILLISECONDS);
      l.isLocked();
      l.isHeldByCurrentThread();
      l.getHoldCount();
      l.remainTimeToLive();
      l.unlock();
      // one contended acquire, so the pub/sub connection and the wake-up path are warm too
      Thread holder = new Thread(() -> {
        RLock h = rc.getLock(prefix + "contended-" + rc.hashCode());
        h.lock(5000, TimeUnit.MILLISECONDS);
        sleepQuietly(150);
        h.unlock();
      });
      holder.start();
      sleepQuietly(50);
      RLock w = rc.getLock(prefix + "contended-" + rc.hashCode());
      if (w.tryLock(2000, 5000, TimeUnit.MILLISECONDS)) w.unlock();
      holder.join();
    }
    RedissonClient rc = redissons.get(0);
    for (String type : types()) {
      try {
        Handle h = makeLock(type, prefix + type, List.of(prefix + type + "-a", prefix + type + "-b"));
        if (h.lock != null) {
          h.lock.lock(5000, TimeUnit.MILLISECONDS);
          h.lock.unlock();
          if (h.lock.tryLock(0, 5000, TimeUnit.MILLISECONDS)) h.lock.unlock();
        }
      } catch (Exception e) {
        // a warm-up failure is not the scenario's business; the run itself will show it
      }
    }
    raw.command(List.of("GET", prefix + "raw"));
    rc.getLock(prefix + "x").isLocked();
  }

  /**
   * The warm-up leaves the client knowing things a client starting the scenario would not: that
   * WAIT is supported (the `WAIT 0 0` probe of 3.26.1+), each master's replica count (read with
   * INFO when unknown, 3.21+), and which scripts it loaded on which address (3.46+ batches send
   * SCRIPT LOAD first for a script it has not loaded there). The orchestrator's SCRIPT FLUSH would
   * then make that knowledge wrong. So the client forgets it here, keeping only what is warm in
   * the JVM (classes, JIT, connections): time 0 sees a client that has run none of the
   * scenario's commands, as the model's clients are.
   */
  static void forgetWhatTheWarmUpTaught() {
    for (RedissonClient rc : redissons) {
      try {
        Object exec = rc.getClass().getMethod("getCommandExecutor").invoke(rc);
        setField(exec, "waitSupportedCommands", null);
        Object cm = exec.getClass().getMethod("getConnectionManager").invoke(exec);
        Method entrySet = cm.getClass().getMethod("getEntrySet");
        entrySet.setAccessible(true);
        for (Object e : (Collection<?>) entrySet.invoke(cm)) {
          Method set = e.getClass().getMethod("setAvailableSlaves", int.class);
          set.setAccessible(true);
          set.invoke(e, -1);
        }
      } catch (NoSuchMethodException e) {
        // a release without that knowledge (no INFO before 3.21): nothing to forget
      } catch (Exception e) {
        throw new RuntimeException("could not reset the warmed-up client's knowledge", e);
      }
    }
    try {
      Object waitSupported = staticField("org.redisson.command.CommandAsyncService", "WAIT_SUPPORTED");
      if (waitSupported instanceof java.util.concurrent.atomic.AtomicReference<?> ref) ref.set(null);
      Object shaCache = staticField("org.redisson.connection.ServiceManager", "SCRIPT_SHA_CACHE");
      if (shaCache instanceof Map<?, ?> m) m.clear();
    } catch (Exception e) {
      throw new RuntimeException("could not reset the warmed-up client's knowledge", e);
    }
  }

  /** Sets an instance field declared by the object's class or a superclass, if there is one. */
  static void setField(Object target, String name, Object value) throws IllegalAccessException {
    for (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {
      try {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        f.set(target, value);
        return;
      } catch (NoSuchFieldException e) {
        // look in the superclass
      }
    }
  }

  static Object staticField(String cls, String name) throws Exception {
    try {
      Field f = Class.forName(cls).getDeclaredField(name);
      f.setAccessible(true);
      return f.get(null);
    } catch (NoSuchFieldException | ClassNotFoundException e) {
      return null;
    }
  }

  static List<String> types() {
    List<String> out = new ArrayList<>();
    for (JsonNode t : cfg.get("lockTypes")) out.add(t.asText());
    return out;
  }

  // ------------------------------------------------------------------ the run

  static void start(long epochMillis) {
    // Anchor the JVM's nanoTime to the wall clock at the instant a millisecond begins: taken at any
    // instant, currentTimeMillis() is up to 1 ms behind, and two JVMs' times 0 would differ by up
    // to 1 ms, enough to make one JVM's unlock and another's next lock look like two holders.
    long before = System.currentTimeMillis();
    long ms;
    while ((ms = System.currentTimeMillis()) == before) Thread.onSpinWait();
    t0Nanos = System.nanoTime() + (epochMillis - ms) * 1_000_000L;
    for (JsonNode spec : cfg.get("threads")) {
      int id = spec.get("id").asInt();
      ThreadRunner runner = new ThreadRunner(id, spec);
      Thread t = new Thread(runner::run, "lockscope-" + clientId + ":" + id);
      threads.put(id, t);
      runners.put(id, runner);
    }
    for (Map.Entry<Integer, Thread> e : threads.entrySet()) {
      emit(obj("ev", "tid").put("thread", e.getKey()).put("jtid", e.getValue().getId()));
    }
    for (Thread t : threads.values()) t.start();
    Thread watcher = new Thread(() -> {
      for (Thread t : threads.values()) {
        try {
          t.join();
        } catch (InterruptedException e) {
          return;
        }
      }
      emit(obj("ev", "end").put("t", now()));
    });
    watcher.setDaemon(true);
    watcher.start();
  }

  static double now() {
    return Math.round((System.nanoTime() - t0Nanos) / 100_000.0) / 10.0;
  }

  static void sleepUntil(double ms) throws InterruptedException {
    long target = t0Nanos + (long) (ms * 1_000_000L);
    long left;
    while ((left = target - System.nanoTime()) > 0) TimeUnit.NANOSECONDS.sleep(left);
  }

  static void sleepQuietly(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static synchronized void emit(ObjectNode o) {
    System.out.println(o.toString());
    System.out.flush();
  }

  static ObjectNode obj(String k, String v) {
    return NF.objectNode().put(k, v);
  }

  /** A lock object of one type; `lock` is null for the naive types, which go through `naive`. */
  static final class Handle {
    RLock lock;
    Object fenced;
    NaiveLock naive;
    boolean multi;
  }

  static Handle makeLock(String type, String name, List<String> locks) throws Exception {
    Handle h = new Handle();
    RedissonClient rc = redissons.get(0);
    switch (type) {
      case "RLock" -> h.lock = rc.getLock(name);
      case "FairLock" -> h.lock = rc.getFairLock(name);
      case "ReadLock" -> h.lock = rc.getReadWriteLock(name).readLock();
      case "WriteLock" -> h.lock = rc.getReadWriteLock(name).writeLock();
      case "SpinLock" -> h.lock = (RLock) rc.getClass().getMethod("getSpinLock", String.class).invoke(rc, name);
      case "FencedLock" -> {
        h.lock = (RLock) rc.getClass().getMethod("getFencedLock", String.class).invoke(rc, name);
        h.fenced = h.lock;
      }
      case "MultiLock", "RedLock" -> {
        RLock[] subs = new RLock[locks.size()];
        for (int i = 0; i < subs.length; i++) {
          RedissonClient owner = redissons.size() > 1 ? redissons.get(i % redissons.size()) : rc;
          subs[i] = owner.getLock(locks.get(i));
        }
        h.lock = type.equals("MultiLock") ? rc.getMultiLock(subs) : rc.getRedLock(subs);
        h.multi = true;
      }
      default -> h.naive = new NaiveLock(type, name);
    }
    return h;
  }

  /** Java's exception as the model records it: the class, qualified, and its message. */
  static final class Thrown extends Exception {
    final Throwable cause;

    Thrown(Throwable cause) {
      super(cause);
      this.cause = cause;
    }
  }

  static final class ThreadRunner {
    final int id;
    final JsonNode spec;
    final String actor;
    final LinkedHashMap<String, Integer> holds = new LinkedHashMap<>();
    final Map<String, String> lastType = new HashMap<>();
    final Map<String, Handle> locks = new HashMap<>();
    final Map<String, Long> tokens = new HashMap<>();
    final boolean cancelable;
    /** after `continueOn`: the thread id Redisson calls without `owner` use (-1: this thread's own) */
    long continuedOn = -1;
    /** the acquire this thread waits for, when it goes through lockAsync(...).get() */
    volatile java.util.concurrent.Future<?> pending;
    int step = -1;

    ThreadRunner(int id, JsonNode spec) {
      this.id = id;
      this.spec = spec;
      this.actor = clientId + ":" + id;
      boolean c = false;
      for (JsonNode x : cfg.path("cancelable")) c |= x.asText().equals(actor);
      this.cancelable = c;
    }

    /**
     * The thread id of an explicit-owner call (`lockAsync(threadId)`): the op's `owner`, else the
     * thread a `continueOn` moved to, else this thread's own when a `cancel` may come; null: the
     * plain synchronous call on this thread.
     */
    Long asyncOwner(JsonNode op) {
      if (op.has("owner")) return op.get("owner").asLong();
      if (continuedOn >= 0) return continuedOn;
      return cancelable ? Thread.currentThread().getId() : null;
    }

    Object await(java.util.concurrent.Future<?> f) throws Exception {
      pending = f;
      try {
        return f.get();
      } finally {
        pending = null;
      }
    }

    void run() {
      try {
        sleepUntil(spec.path("start").asLong(0));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      emit(base("start"));
      try {
        runOps(list(spec.get("program")), 0);
        emit(base("done").put("outcome", "normal"));
      } catch (Thrown t) {
        emit(base("done").put("outcome", "exception").put("exception", t.cause.getClass().getName())
            .put("message", String.valueOf(t.cause.getMessage())));
      } catch (Throwable t) {
        emit(base("done").put("outcome", "harness-error").put("exception", t.toString()));
      }
    }

    ObjectNode base(String ev) {
      ObjectNode o = obj("ev", ev).put("actor", actor).put("t", now());
      if (step >= 0) o.put("step", step);
      return o;
    }

    void runOps(List<JsonNode> ops, int base) throws Thrown {
      int at = base;
      for (int i = 0; i < ops.size(); i++) {
        JsonNode op = ops.get(i);
        String kind = op.get("op").asText();
        if (kind.equals("repeat")) {
          int n = expandedLength(list(op.get("body")));
          for (int k = 0; k < op.get("times").asInt(); k++) runOps(list(op.get("body")), at + k * n);
          at += opLength(op);
          continue;
        }
        if (kind.equals("try")) {
          runTry(op, at);
          at += opLength(op);
          continue;
        }
        step = at++;
        Boolean acquired = runOp(op);
        if (acquired == null || acquired) continue;
        int end = matchingUnlock(ops, i);
        for (int k = i + 1; k <= end; k++) at += opLength(ops.get(k));
        if (end > i) i = end;
      }
    }

    void runTry(JsonNode op, int base) throws Thrown {
      List<JsonNode> body = list(op.get("body"));
      List<JsonNode> katch = list(op.get("catch"));
      List<JsonNode> fin = list(op.get("finally"));
      int catchAt = base + expandedLength(body);
      int finallyAt = catchAt + expandedLength(katch);
      Thrown pending = null;
      try {
        runOps(body, base);
      } catch (Thrown t) {
        pending = t;
      }
      if (pending != null && catches(op, pending.cause)) {
        emit(base("caught").put("exception", pending.cause.getClass().getName()));
        pending = null;
        try {
          runOps(katch, catchAt);
        } catch (Thrown t) {
          pending = t;
        }
      }
      if (op.has("finally")) runOps(fin, finallyAt);
      if (pending != null) throw pending;
    }

    boolean catches(JsonNode op, Throwable e) {
      if (!op.has("catch") && !op.has("catchClass")) return false;
      if (!op.has("catchClass")) return true;
      String want = op.get("catchClass").asText();
      for (Class<?> c = e.getClass(); c != null; c = c.getSuperclass()) {
        if (c.getName().equals(want) || c.getSimpleName().equals(want)) return true;
      }
      return false;
    }

    /** Runs one op; returns the acquire's outcome for lock ops, null for the others. */
    Boolean runOp(JsonNode op) throws Thrown {
      String kind = op.get("op").asText();
      ObjectNode call = base("call").put("op", kind);
      emit(call);
      try {
        Object result = invoke(op, kind);
        ObjectNode ret = base("ret").put("op", kind);
        ret.set("result", toJson(result));
        emit(ret);
        if (kind.equals("tryLock")) return (Boolean) result;
        return kind.equals("lock") || kind.equals("lockInterruptibly") ? Boolean.TRUE : null;
      } catch (Throwable e) {
        Throwable c = unwrap(e);
        emit(base("ret").put("op", kind).put("error", c.getClass().getName())
            .put("message", String.valueOf(c.getMessage())));
        throw new Thrown(c);
      }
    }

    Object invoke(JsonNode op, String kind) throws Exception {
      switch (kind) {
        case "work":
          busy(op.get("ms").asLong());
          return null;
        case "sleep":
          Thread.sleep(op.get("ms").asLong());
          return null;
        case "continueOn": {
          // a coroutine or callback resuming on that thread: its id is Thread.currentThread().getId()
          Thread other = threads.get(op.get("thread").asInt());
          continuedOn = other == null ? op.get("thread").asLong() : other.getId();
          return null;
        }
        case "use":
          return use(op.path("ms").asLong(1));
        case "redis":
          return raw.command(strings(op.get("argv")));
        case "eval": {
          List<String> argv = new ArrayList<>(List.of("EVAL", op.get("script").asText(), String.valueOf(op.path("keys").size())));
          argv.addAll(strings(op.path("keys")));
          argv.addAll(strings(op.path("args")));
          return raw.command(argv);
        }
        default:
          return lockOp(op, kind);
      }
    }

    /** `work` is business logic: an interrupt does not stop it, it stays pending for the next wait. */
    void busy(long ms) {
      long end = System.nanoTime() + ms * 1_000_000L;
      boolean interrupted = false;
      long left;
      while ((left = end - System.nanoTime()) > 0) {
        try {
          TimeUnit.NANOSECONDS.sleep(left);
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) Thread.currentThread().interrupt();
    }

    /** The protected resource lives in the orchestrator: it sees the read and the write, in order. */
    Object use(long ms) {
      String lock = null;
      for (String n : holds.keySet()) lock = n;
      Long token = lock == null ? null : tokens.get(lock);
      ObjectNode read = base("use-read");
      if (lock != null) read.put("lock", lock);
      if (token != null) read.put("token", token);
      emit(read);
      busy(Math.max(1, ms));
      ObjectNode write = base("use-write");
      if (lock != null) write.put("lock", lock);
      if (token != null) write.put("token", token);
      emit(write);
      return null;
    }

    Handle handle(JsonNode op, String type) throws Exception {
      String name = op.get("lock").asText();
      String key = type + "\u0000" + name;
      Handle h = locks.get(key);
      if (h == null) {
        h = makeLock(type, name, strings(op.path("locks")));
        locks.put(key, h);
      }
      return h;
    }

    Object lockOp(JsonNode op, String kind) throws Exception {
      String name = op.get("lock").asText();
      boolean acquire = kind.equals("lock") || kind.equals("tryLock") || kind.equals("lockInterruptibly");
      String type = op.has("type") ? op.get("type").asText()
          : acquire ? "RLock" : lastType.getOrDefault(name, "RLock");
      if (acquire) lastType.put(name, type);
      Handle h = handle(op, type);
      long lease = op.has("leaseMs") ? op.get("leaseMs").asLong() : -1;
      if (acquire) {
        boolean ok = h.naive != null ? h.naive.acquire(kind, op) : acquireFamily(h, kind, op, lease, name);
        if (ok) {
          int count = h.naive != null ? 1 : holds.getOrDefault(name, 0) + 1;
          holds.remove(name);
          holds.put(name, count);
        }
        return kind.equals("tryLock") ? ok : null;
      }
      switch (kind) {
        case "unlock": {
          Integer held = holds.get(name);
          if (h.naive != null) {
            boolean r = h.naive.unlock();
            holds.remove(name);
            return r;
          }
          try {
            Long owner = op.has("owner") ? Long.valueOf(op.get("owner").asLong()) : continuedOn >= 0 ? Long.valueOf(continuedOn) : null;
            if (owner != null && !h.multi) await(h.lock.unlockAsync(owner));
            else h.lock.unlock();
          } catch (Exception e) {
            holds.remove(name);
            throw e;
          }
          if (held != null) {
            if (held > 1) holds.put(name, held - 1);
            else holds.remove(name);
          }
          return null;
        }
        case "forceUnlock": {
          if (h.lock == null) throw new UnsupportedOperationException("forceUnlock on a " + type + " lock");
          boolean r = h.lock.forceUnlock();
          holds.remove(name);
          return r;
        }
        case "isLocked":
          if (h.naive != null) return ((Long) raw.command(List.of("EXISTS", name))) == 1L;
          return h.lock.isLocked();
        case "isHeldByThread": {
          if (op.has("thread")) {
            Thread other = threads.get(op.get("thread").asInt());
            return h.lock.isHeldByThread(other == null ? -1 : other.getId());
          }
          if (continuedOn >= 0) return h.lock.isHeldByThread(continuedOn);
          return h.lock.isHeldByCurrentThread();
        }
        case "getHoldCount":
          return h.lock.getHoldCount();
        case "remainTimeToLive":
          if (h.naive != null) return raw.command(List.of("PTTL", name));
          return h.lock.remainTimeToLive();
        case "getToken":
          return h.fenced.getClass().getMethod("getToken").invoke(h.fenced);
        default:
          throw new UnsupportedOperationException("op " + kind);
      }
    }

    boolean acquireFamily(Handle h, String kind, JsonNode op, long lease, String name) throws Exception {
      boolean hasWait = op.has("waitMs");
      long wait = op.path("waitMs").asLong(0);
      if (h.fenced != null) {
        // lockAndGetToken / tryLockAndGetToken: the token is what `use` hands the resource
        Object f = h.fenced;
        Long token;
        if (kind.equals("lock")) {
          token = lease < 0 ? (Long) f.getClass().getMethod("lockAndGetToken").invoke(f)
              : (Long) f.getClass().getMethod("lockAndGetToken", long.class, TimeUnit.class).invoke(f, lease, TimeUnit.MILLISECONDS);
        } else if (kind.equals("tryLock")) {
          token = !hasWait && lease < 0 ? (Long) f.getClass().getMethod("tryLockAndGetToken").invoke(f)
              : (Long) f.getClass().getMethod("tryLockAndGetToken", long.class, long.class, TimeUnit.class)
                  .invoke(f, wait, lease, TimeUnit.MILLISECONDS);
        } else {
          h.lock.lockInterruptibly(lease, TimeUnit.MILLISECONDS);
          return true;
        }
        if (token == null) return false;
        tokens.put(name, token);
        return true;
      }
      Long owner = h.multi ? null : asyncOwner(op);
      if (owner != null) {
        // lockAsync(leaseTime, unit, threadId) / tryLockAsync(..., threadId), joined with get()
        long l = lease < 0 ? -1 : lease;
        if (!kind.equals("tryLock")) {
          await(h.lock.lockAsync(l, TimeUnit.MILLISECONDS, owner));
          return true;
        }
        if (!hasWait && lease < 0) return (Boolean) await(h.lock.tryLockAsync(owner));
        return (Boolean) await(h.lock.tryLockAsync(wait, l, TimeUnit.MILLISECONDS, owner));
      }
      switch (kind) {
        case "lock":
          if (lease < 0) h.lock.lock();
          else h.lock.lock(lease, TimeUnit.MILLISECONDS);
          return true;
        case "lockInterruptibly":
          if (lease < 0) h.lock.lockInterruptibly();
          else h.lock.lockInterruptibly(lease, TimeUnit.MILLISECONDS);
          return true;
        default:
          if (!hasWait && lease < 0) return h.lock.tryLock();
          if (lease < 0) return h.lock.tryLock(wait, TimeUnit.MILLISECONDS);
          return h.lock.tryLock(wait, lease, TimeUnit.MILLISECONDS);
      }
    }

    int matchingUnlock(List<JsonNode> ops, int from) {
      String name = ops.get(from).get("lock").asText();
      int depth = 0;
      for (int i = from + 1; i < ops.size(); i++) {
        JsonNode op = ops.get(i);
        String k = op.get("op").asText();
        if (k.equals("lock") || k.equals("tryLock") || k.equals("lockInterruptibly")) {
          if (op.get("lock").asText().equals(name)) depth++;
        } else if (k.equals("unlock") && op.get("lock").asText().equals(name)) {
          if (depth == 0) return i;
          depth--;
        }
      }
      return -1;
    }
  }

  static Throwable unwrap(Throwable e) {
    while ((e instanceof java.lang.reflect.InvocationTargetException || e instanceof java.util.concurrent.CompletionException
            || e instanceof java.util.concurrent.ExecutionException)
        && e.getCause() != null) e = e.getCause();
    return e;
  }

  static int expandedLength(List<JsonNode> ops) {
    int n = 0;
    for (JsonNode op : ops) n += opLength(op);
    return n;
  }

  static int opLength(JsonNode op) {
    String k = op.get("op").asText();
    if (k.equals("repeat")) return op.get("times").asInt() * expandedLength(list(op.get("body")));
    if (k.equals("try")) return expandedLength(list(op.get("body"))) + expandedLength(list(op.get("catch")))
        + expandedLength(list(op.get("finally")));
    return 1;
  }

  static List<JsonNode> list(JsonNode n) {
    List<JsonNode> out = new ArrayList<>();
    if (n != null) n.forEach(out::add);
    return out;
  }

  static List<String> strings(JsonNode n) {
    List<String> out = new ArrayList<>();
    if (n != null) n.forEach(x -> out.add(x.asText()));
    return out;
  }

  /** A reply in the model's compact JSON (src/engine/sim/reply_json.ts). */
  static JsonNode toJson(Object v) {
    if (v == null) return NF.nullNode();
    if (v instanceof Boolean b) return NF.booleanNode(b);
    if (v instanceof Long l) return NF.numberNode(l);
    if (v instanceof Integer i) return NF.numberNode(i);
    if (v instanceof String s) return NF.textNode(s);
    if (v instanceof RawConnection.Status s) return NF.objectNode().put("status", s.text());
    if (v instanceof RawConnection.Err e) return NF.objectNode().put("error", e.text());
    if (v instanceof List<?> list) {
      ArrayNode a = NF.arrayNode();
      for (Object x : list) a.add(toJson(x));
      return a;
    }
    return NF.textNode(String.valueOf(v));
  }

  /**
   * The teaching locks of src/engine/naive/NaiveLock.ts, sent as the same raw commands on the
   * client's one raw connection (Redisson has no API for them).
   */
  static final class NaiveLock {
    static final SecureRandom RANDOM = new SecureRandom();
    final String type;
    final String name;
    String token;

    NaiveLock(String type, String name) {
      this.type = type;
      this.name = name;
    }

    boolean acquire(String kind, JsonNode op) throws Exception {
      long lease = op.path("leaseMs").asLong(30_000);
      if (!kind.equals("tryLock")) {
        while (!attempt(lease)) Thread.sleep(100);
        return true;
      }
      long deadline = System.nanoTime() + op.path("waitMs").asLong(0) * 1_000_000L;
      while (true) {
        if (attempt(lease)) return true;
        long left = (deadline - System.nanoTime()) / 1_000_000L;
        if (left <= 0) return false;
        Thread.sleep(Math.min(100, left));
      }
    }

    boolean attempt(long lease) throws Exception {
      switch (type) {
        case "setnx":
          return took(raw.command(List.of("SETNX", name, "1")), "1");
        case "setnx-expire":
          if (!took(raw.command(List.of("SETNX", name, "1")), "1")) return false;
          raw.command(List.of("EXPIRE", name, String.valueOf(Math.max(1, (lease + 999) / 1000))));
          return true;
        case "set-nx-px":
          return took(raw.command(List.of("SET", name, "1", "NX", "PX", String.valueOf(lease))), "1");
        default: {
          String t = hex(10);
          return took(raw.command(List.of("SET", name, t, "NX", "PX", String.valueOf(lease))), t);
        }
      }
    }

    boolean took(Object r, String value) {
      boolean ok = (r instanceof Long l && l == 1L) || (r instanceof RawConnection.Status s && s.text().equals("OK"));
      if (ok) token = value;
      return ok;
    }

    boolean unlock() throws Exception {
      String t = token;
      token = null;
      switch (type) {
        case "setnx", "setnx-expire", "set-nx-px":
          return Long.valueOf(1).equals(raw.command(List.of("DEL", name)));
        case "set-nx-px-get-del": {
          Object cur = raw.command(List.of("GET", name));
          if (!(cur instanceof String s) || !s.equals(t)) return false;
          return Long.valueOf(1).equals(raw.command(List.of("DEL", name)));
        }
        default:
          return Long.valueOf(1).equals(raw.command(List.of("EVAL", cfg.get("naiveScript").asText(), "1", name, t == null ? "" : t)));
      }
    }

    static String hex(int n) {
      StringBuilder b = new StringBuilder();
      for (int i = 0; i < n; i++) b.append(Character.forDigit(RANDOM.nextInt(16), 16));
      return b.toString();
    }
  }
}
