// The Verilator harness: a C++ main that runs a Verilated top as a harness of the binary protocol
// (hw/contract/harnessProtocol.ts). It is the same for every design; what a design changes (its
// model class, its ports, its clocks, the protocol's numbers) is in harness_ports.h, which
// engines/verilator/verilatorHarness.ts writes beside it.
//
// Commands come on standard input, frames go to standard output (where the design's $display lines
// go too, in order), following the step contract's phases (hw/contract/engine.ts): cycle_check (pokes
// applied) → before_edge (eval, outputs sampled) → at_edge (clock rises, eval) → after_edge (clock
// falls). Each stream gets a fresh model, so all state starts at 0 again (the build uses
// --x-initial 0). Standard output is flushed only when the next command has not arrived yet, so a
// batch run writes in big blocks and a session gets its answer at once.
//
// Arguments: `--vcd FILE` traces the first stream; `--commands FILE` and `--frames FILE` make it a
// batch run through files (harnessStimulus.ts, Transport): the commands file is mapped, each
// OP_FRAMES's input frames (and a compare's expected frames and mask) are read where they lie, and
// sampled frames go straight into a block of the frames file; `--serve files` runs batch after
// batch, each named by an OP_BATCH on standard input. The per-cycle code is straight-line per port
// (the port table's X-macros expand to one statement per port), as a Verilator user's own loop is
// (bench/nativeHarness.ts); only a compare's word loops are loops.
#include "harness_ports.h"

#include "verilated.h"
#if VM_TRACE
#include "verilated_vcd_c.h"
#endif
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the harness protocol is little-endian words"
#endif

// A port's words, least significant first, to and from Verilator's C++ type for its width: up to
// 32 bits an integer, up to 64 a QData, above that a VlWide array of 32-bit words.
static inline void setPort(CData& field, const uint32_t* words) { field = static_cast<CData>(words[0]); }
static inline void setPort(SData& field, const uint32_t* words) { field = static_cast<SData>(words[0]); }
static inline void setPort(IData& field, const uint32_t* words) { field = words[0]; }
static inline void setPort(QData& field, const uint32_t* words) {
  field = (static_cast<QData>(words[1]) << 32) | words[0];
}
template <std::size_t N>
static inline void setPort(VlWide<N>& field, const uint32_t* words) {
  for (std::size_t i = 0; i < N; ++i) field[i] = words[i];
}
static inline void getPort(CData field, uint32_t* words) { words[0] = field; }
static inline void getPort(SData field, uint32_t* words) { words[0] = field; }
static inline void getPort(IData field, uint32_t* words) { words[0] = field; }
static inline void getPort(QData field, uint32_t* words) {
  words[0] = static_cast<uint32_t>(field);
  words[1] = static_cast<uint32_t>(field >> 32);
}
template <std::size_t N>
static inline void getPort(const VlWide<N>& field, uint32_t* words) {
  for (std::size_t i = 0; i < N; ++i) words[i] = field[i];
}

// Arrays sized by the port table hold at least one word (a design may have no inputs or outputs).
static constexpr std::size_t atLeastOne(std::size_t words) { return words > 0 ? words : 1; }

[[noreturn]] static void bad(uint32_t command) {
  std::fprintf(stderr, "harness: malformed command 0x%08x\n", command);
  std::exit(2);
}

#if VM_TRACE
// Verilator's own trace file reports a failed write (a full disk) through VL_FATAL_MT, whose flush
// callbacks wait for the trace's lock that the failing flush holds: the harness hung until the
// watchdog. This one says what failed in one line and exits, so the engine reports it at once.
class TraceFile final : public VerilatedVcdFile {
  int fd = -1;

 public:
  bool open(const std::string& name) override {
    fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    return fd >= 0;
  }
  void close() override {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
  ssize_t write(const char* bytes, ssize_t length) override {
    for (ssize_t done = 0; done < length;) {
      const ssize_t wrote = ::write(fd, bytes + done, static_cast<size_t>(length - done));
      if (wrote < 0 && errno == EINTR) continue;
      if (wrote <= 0) {
        std::fprintf(stderr, "harness: cannot write the trace: %s\n", std::strerror(wrote < 0 ? errno : ENOSPC));
        std::fflush(stdout);
        _exit(3);
      }
      done += wrote;
    }
    return length;
  }
};
static TraceFile traceFile;
#endif

static unsigned char input[1 << 20];
static size_t inputEnd = 0, inputAt = 0;
// Where commands come from: standard input, or the --commands file of a batch run, mapped whole
// (its OP_FRAMES blocks are then read in place, no copy per cycle).
static int commandsFd = 0;
static const uint32_t* mapped = nullptr;
static size_t mappedWords = 0, mappedAt = 0;

// The next `count` words of the commands; stdout is flushed before waiting for more. False at their end.
static bool readWords(uint32_t* out, size_t count) {
  if (mapped) {
    if (count > mappedWords - mappedAt) return false;
    std::memcpy(out, mapped + mappedAt, count * 4);
    mappedAt += count;
    return true;
  }
  unsigned char* to = reinterpret_cast<unsigned char*>(out);
  size_t need = count * 4;
  while (need > 0) {
    if (inputAt == inputEnd) {
      std::fflush(stdout);
      const ssize_t got = read(commandsFd, input, sizeof input);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return false;
      inputEnd = static_cast<size_t>(got);
      inputAt = 0;
    }
    const size_t take = need < inputEnd - inputAt ? need : inputEnd - inputAt;
    std::memcpy(to, input + inputAt, take);
    to += take;
    inputAt += take;
    need -= take;
  }
  return true;
}

// The next `count` words of a mapped commands file, in place; null past its end.
static const uint32_t* takeWords(size_t count) {
  if (count > mappedWords - mappedAt) return nullptr;
  const uint32_t* words = mapped + mappedAt;
  mappedAt += count;
  return words;
}

static std::unique_ptr<Model> top;
// Where outputs frames go: standard output, or the --frames file of a batch run (every sampled
// frame, headerless, in order: the file is the run's output frames as they are in memory), through
// a block of its own so a cycle's frame is sampled straight into it.
static int framesFd = -1;
static uint32_t framesBlock[1 << 18];
static size_t framesAt = 0;
static uint32_t frame[1 + OUTPUT_WORDS];
static uint32_t inputFrame[atLeastOne(INPUT_WORDS)];
// The mask of a compare without one: every bit compared.
static uint32_t allOnes[atLeastOne(OUTPUT_WORDS)];
// The value and mask frames of an OP_WAIT.
static uint32_t waitValue[atLeastOne(OUTPUT_WORDS)], waitMask[atLeastOne(OUTPUT_WORDS)];

static void writeAll(int fd, const void* data, size_t bytes) {
  const char* from = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t wrote = write(fd, from, bytes);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) {
      std::perror("harness: cannot write the frames");
      std::exit(2);
    }
    from += wrote;
    bytes -= static_cast<size_t>(wrote);
  }
}

static void flushFrames() {
  if (framesAt > 0) writeAll(framesFd, framesBlock, framesAt * 4);
  framesAt = 0;
}

// Room for `count` words at the end of the frames file's block (flushed first when full).
static uint32_t* framesSlot(size_t count) {
  if (framesAt + count > sizeof framesBlock / 4) flushFrames();
  if (count > sizeof framesBlock / 4) return nullptr;
  uint32_t* slot = framesBlock + framesAt;
  framesAt += count;
  return slot;
}

static void appendFrames(const uint32_t* words, size_t count) {
  uint32_t* slot = framesSlot(count);
  if (slot)
    std::memcpy(slot, words, count * 4);
  else
    writeAll(framesFd, words, count * 4);
}

// The step contract's cycle_check: one input frame applied, port by port.
static inline void applyInputs([[maybe_unused]] const uint32_t* in) {
#define APPLY_INPUT(index, field, words, at) setPort(top->field, in + (at));
  HARNESS_INPUTS(APPLY_INPUT)
#undef APPLY_INPUT
}

// before_edge's sample: every output's words into `out`, port by port.
static inline void sampleOutputs([[maybe_unused]] uint32_t* out) {
#define SAMPLE_OUTPUT(index, field, words, at) getPort(top->field, out + (at));
  HARNESS_OUTPUTS(SAMPLE_OUTPUT)
#undef SAMPLE_OUTPUT
}

// OP_POKE of input `index`: its words from the commands, applied now.
static void pokeInput(uint32_t command, uint32_t index) {
  [[maybe_unused]] uint32_t buffer[atLeastOne(MAX_INPUT_WORDS)];
  switch (index) {
#define POKE_INPUT(index, field, words, at) \
  case index:                               \
    if (!readWords(buffer, words)) bad(command); \
    setPort(top->field, buffer);            \
    break;
    HARNESS_INPUTS(POKE_INPUT)
#undef POKE_INPUT
    default:
      bad(command);
  }
}

// One outputs frame: on standard output with its header, into the --frames file without.
static void writeOutputs() {
  if (framesFd >= 0) {
    uint32_t* slot = framesSlot(OUTPUT_WORDS);
    if (slot) {
      sampleOutputs(slot);
      return;
    }
    sampleOutputs(frame + 1);
    appendFrames(frame + 1, OUTPUT_WORDS);
    return;
  }
  frame[0] = FRAME_OUTPUTS;
  sampleOutputs(frame + 1);
  fwrite_unlocked(frame, sizeof(uint32_t), 1 + OUTPUT_WORDS, stdout);
}

static void writeAck(uint32_t cycle) {
  const uint32_t ack[2] = {FRAME_ACK, cycle};
  fwrite_unlocked(ack, sizeof(uint32_t), 2, stdout);
}

// The clock inputs: all low at a stream's start, and after each edge.
static inline void clocksLow() {
#if defined(HARNESS_CLOCKS)
#define CLOCK_LOW(index, field) top->field = 0;
  HARNESS_CLOCKS(CLOCK_LOW)
#undef CLOCK_LOW
#elif defined(HARNESS_CLOCK)
  top->HARNESS_CLOCK = 0;
#endif
}

// Maps a batch's commands file (read in place by readWords and takeWords until unmapCommands).
static bool openCommands(const char* path) {
  const int fd = open(path, O_RDONLY);
  struct stat status;
  if (fd < 0 || fstat(fd, &status) != 0) {
    std::perror("harness: cannot read the commands");
    return false;
  }
  mappedWords = static_cast<size_t>(status.st_size) / 4;
  mappedAt = 0;
  static const uint32_t none = 0;
  mapped = &none;
  if (mappedWords > 0) {
    void* map = mmap(nullptr, mappedWords * 4, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (map == MAP_FAILED) {
      std::perror("harness: cannot map the commands");
      return false;
    }
    mapped = static_cast<const uint32_t*>(map);
  }
  close(fd);
  return true;
}

static void unmapCommands() {
  if (mapped && mappedWords > 0) munmap(const_cast<uint32_t*>(mapped), mappedWords * 4);
  mapped = nullptr;
  mappedWords = mappedAt = 0;
}

static bool openFrames(const char* path) {
  framesFd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (framesFd < 0) std::perror("harness: cannot write the frames");
  framesAt = 0;
  return framesFd >= 0;
}

int main(int argc, char** argv) {
  static char outputBuffer[1 << 20];
  std::setvbuf(stdout, outputBuffer, _IOFBF, sizeof outputBuffer);
  for (uint32_t& word : allOnes) word = 0xffffffffu;
  const char* vcdPath = nullptr;
  bool serve = false;
  for (int i = 1; i < argc; i += 2) {
    if (i + 1 >= argc) bad(0);
    if (std::strcmp(argv[i], "--vcd") == 0)
      vcdPath = argv[i + 1];
    else if (std::strcmp(argv[i], "--commands") == 0) {
      if (!openCommands(argv[i + 1])) return 2;
    } else if (std::strcmp(argv[i], "--frames") == 0) {
      if (!openFrames(argv[i + 1])) return 2;
    } else if (std::strcmp(argv[i], "--serve") == 0 && std::strcmp(argv[i + 1], "files") == 0)
      serve = true;
    else
      bad(0);
  }
  std::unique_ptr<VerilatedContext> context;
  uint64_t time = 0;
  uint32_t cycle = 0;
#if VM_TRACE
  // Only the first stream is traced; the trace is closed before its model goes away.
  std::unique_ptr<VerilatedVcdC> trace;
  bool traceWanted = vcdPath != nullptr;
  const auto closeTrace = [&]() {
    if (!trace) return;
    trace->dump(time);
    trace->close();
    trace.reset();
  };
#else
  (void)vcdPath;
#endif
  uint32_t command;
  // The commands of one run, to OP_END or the end of the input; then the model and the frames file are closed.
  const auto runCommands = [&]() {
    while (readWords(&command, 1)) {
      const uint32_t op = command & 0xff;
      if (op == OP_END) break;
      if (op == OP_STREAM) {
#if VM_TRACE
        closeTrace();
#endif
        if (top) top->final();
        top.reset();
        context.reset(new VerilatedContext);
        context->randReset(0);
#if VM_TRACE
        if (traceWanted) context->traceEverOn(true);
#endif
        top.reset(new Model{context.get()});
#if VM_TRACE
        if (traceWanted) {
          traceWanted = false;
          trace.reset(new VerilatedVcdC(&traceFile));
          top->trace(trace.get(), 99);
          trace->open(vcdPath);
        }
#endif
        // The marker first: the settling eval below already prints a combinational check that is false.
        if (CHECKED) std::fputs("GEN-STREAM\n", stdout);
        clocksLow();
#if defined(HARNESS_CLOCKS)
        top->eval();  // settled once, so a reset high in step 0 is a rising edge
#endif
        cycle = 0;
        continue;
      }
      if (!top) bad(command);
      if (op == OP_POKE) {
        pokeInput(command, command >> 8);
      } else if (op == OP_PEEK) {
        top->eval();
        writeOutputs();
      } else if (op == OP_STEP || op == OP_FRAMES || op == OP_WAIT) {
        uint32_t count;
        if (!readWords(&count, 1)) bad(command);
        // A wait: the count is its limit; it ends early in the cycle whose outputs meet the condition.
        const bool wait = op == OP_WAIT;
        if (wait && (!readWords(waitValue, OUTPUT_WORDS) || !readWords(waitMask, OUTPUT_WORDS))) bad(command);
        const uint32_t flags = command >> 8;
        const bool sample = flags & STEP_SAMPLE;
        // A compare (Engine.compare): the verdict of the stream instead of its frames (harnessStimulus.ts).
        const bool compare = flags & STEP_COMPARE;
        uint32_t limit = 0;
        const uint32_t* frames = nullptr;
        const uint32_t* expected = nullptr;
        const uint32_t* mask = allOnes;
        size_t maskStride = 0;
        if (compare && (op != OP_FRAMES || !mapped || framesFd < 0 || !readWords(&limit, 1))) bad(command);
        if (op == OP_FRAMES && mapped) {
          frames = takeWords(static_cast<size_t>(count) * INPUT_WORDS);
          if (!frames) bad(command);
          if (flags & STEP_EXPECT) {
            expected = takeWords(static_cast<size_t>(count) * OUTPUT_WORDS);
            if (!expected) bad(command);
          }
          if (flags & STEP_MASK) {
            mask = takeWords(static_cast<size_t>(count) * OUTPUT_WORDS);
            if (!mask || !expected) bad(command);
            maskStride = OUTPUT_WORDS;
          }
        }
        if (!compare && (flags & (STEP_EXPECT | STEP_MASK))) bad(command);
        uint64_t mismatches = 0;
        uint32_t digest = DIGEST_BASIS;
        std::vector<uint32_t> listed;
        uint32_t listedCount = 0;
        const uint32_t first = cycle;
        for (uint32_t i = 0; wait || i < count; ++i) {
          if (op == OP_FRAMES) {
            if (frames)
              applyInputs(frames + static_cast<size_t>(i) * INPUT_WORDS);
            else {
              if (!readWords(inputFrame, INPUT_WORDS)) bad(command);
              applyInputs(inputFrame);
            }
          }
          top->eval();
          if (wait) {
            // OP_PEEK's sample: nothing traced yet, so a wait that ends here leaves the cycle as a peek does.
            sampleOutputs(frame + 1);
            uint32_t differs = 0;
            for (size_t k = 0; k < OUTPUT_WORDS; ++k) differs |= (frame[1 + k] ^ waitValue[k]) & waitMask[k];
            if (differs == 0 || i == count) {
              frame[0] = FRAME_OUTPUTS;
              fwrite_unlocked(frame, sizeof(uint32_t), 1 + OUTPUT_WORDS, stdout);
              break;
            }
          }
#if VM_TRACE
          if (trace) trace->dump(time);
#endif
          if (compare) {
            uint32_t* got = frame + 1;
            sampleOutputs(got);
            for (size_t k = 0; k < OUTPUT_WORDS; ++k) digest = (digest ^ got[k]) * DIGEST_PRIME;
            if (expected) {
              const uint32_t* want = expected + static_cast<size_t>(i) * OUTPUT_WORDS;
              const uint32_t* care = mask + static_cast<size_t>(i) * maskStride;
              uint32_t differs = 0;
              for (size_t k = 0; k < OUTPUT_WORDS; ++k) differs |= (got[k] ^ want[k]) & care[k];
              if (differs != 0)
                for (uint32_t port = 0; port < OUTPUT_COUNT; ++port) {
                  uint32_t wrong = 0;
                  for (uint32_t k = OUTPUT_AT[port]; k < OUTPUT_AT[port + 1]; ++k) wrong |= (got[k] ^ want[k]) & care[k];
                  if (wrong == 0) continue;
                  ++mismatches;
                  if (listedCount == limit) continue;
                  ++listedCount;
                  listed.push_back(cycle - first);
                  listed.push_back(port);
                  for (uint32_t k = OUTPUT_AT[port]; k < OUTPUT_AT[port + 1]; ++k) listed.push_back(got[k]);
                }
            }
          } else if (sample)
            writeOutputs();
          if (CHECKED) std::fputs("GEN-CYCLE\n", stdout);
#if defined(HARNESS_CLOCK)
          top->HARNESS_CLOCK = 1;
          top->eval();
#if VM_TRACE
          if (trace) trace->dump(time + 5);
#endif
          top->HARNESS_CLOCK = 0;
#endif
          time += 10;
          ++cycle;
        }
        if (compare) {
          const uint32_t head[4] = {static_cast<uint32_t>(mismatches), static_cast<uint32_t>(mismatches >> 32), digest,
                                    listedCount};
          appendFrames(head, 4);
          if (!listed.empty()) appendFrames(listed.data(), listed.size());
        }
        if (wait || (flags & STEP_ACK)) writeAck(cycle);
        if (flags & STEP_PEEK) {
          top->eval();
          writeOutputs();
        }
#if defined(HARNESS_CLOCKS)
      } else if (op == OP_CLOCK_STEP) {
        // One step of several clocks: the mask of those that rise, then its sample, edge and next times.
        uint32_t step[7];
        if (!readWords(step, 7)) bad(command);
        const auto at = [&](int i) { return (static_cast<uint64_t>(step[2 * i + 2]) << 32) | step[2 * i + 1]; };
        time = at(0);
        top->eval();
#if VM_TRACE
        if (trace) trace->dump(time);
#endif
        if ((command >> 8) & STEP_SAMPLE) writeOutputs();
        if (CHECKED) std::fputs("GEN-CYCLE\n", stdout);
#define CLOCK_RISE(index, field) \
  if (step[0] & (1u << (index))) top->field = 1;
        HARNESS_CLOCKS(CLOCK_RISE)
#undef CLOCK_RISE
        top->eval();
#if VM_TRACE
        if (trace) trace->dump(at(1));
#endif
        clocksLow();
        time = at(2);
        ++cycle;
        if ((command >> 8) & STEP_ACK) writeAck(cycle);
#endif
      } else {
        bad(command);
      }
    }
#if VM_TRACE
    closeTrace();
#endif
    if (top) top->final();
    // The model goes before its context (a model outliving it deadlocks in its destructor).
    top.reset();
    context.reset();
    if (framesFd >= 0) {
      flushFrames();
      if (close(framesFd) != 0) {
        std::perror("harness: cannot write the frames");
        std::exit(2);
      }
      framesFd = -1;
    }
  };
  if (!serve) runCommands();
  // --serve files: batch after batch through files, each an OP_BATCH on standard input naming its
  // commands and frames files, answered by an ack frame once its frames file is complete.
  uint32_t header;
  // What the simulation prints during a batch (check lines, markers) goes into the batch's log
  // file, not through the pipe: a pipe holds 64 KB, and a batch's lines beyond it made the two
  // processes wait on each other; the pipe is kept for the ack (savedOutput).
  const int savedOutput = serve ? dup(1) : -1;
  while (serve && readWords(&header, 1)) {
    uint32_t length;
    if ((header & 0xff) != OP_BATCH || !readWords(&length, 1) || length == 0 || length > 65536) bad(header);
    std::vector<uint32_t> text((length + 3) / 4 + 1, 0);
    if (!readWords(text.data(), (length + 3) / 4)) bad(header);
    // Three paths, each ending in a 0 byte: commands, frames, log.
    const char* paths[3];
    size_t at = 0;
    for (const char*& path : paths) {
      if (at >= length) bad(header);
      path = reinterpret_cast<const char*>(text.data()) + at;
      at += std::strlen(path) + 1;
    }
    if (at > length) bad(header);
    if (!openCommands(paths[0]) || !openFrames(paths[1])) return 2;
    const int log = open(paths[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (log < 0 || dup2(log, 1) < 0) {
      std::perror("harness: cannot write the log");
      return 2;
    }
    close(log);
    time = 0;
    cycle = 0;
    runCommands();
    unmapCommands();
    if (std::fflush(stdout) != 0 || dup2(savedOutput, 1) < 0) {
      std::perror("harness: cannot write the log");
      return 2;
    }
    writeAck(cycle);
    std::fflush(stdout);
  }
  if (std::fflush(stdout) != 0) {
    std::perror("harness: cannot write the results");
    return 2;
  }
  return 0;
}
