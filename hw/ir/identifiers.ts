/**
 * Verilog-2005 and SystemVerilog keywords a user name could collide with. DSL names are already
 * plain identifiers (`[A-Za-z_][A-Za-z0-9_]*`, checked where they are declared), so keywords are
 * the only clash left; SystemVerilog ones are included because Verilator and Yosys parse with
 * those reserved.
 */
const KEYWORDS: ReadonlySet<string> = new Set(
  (
    'always and assign automatic begin buf bufif0 bufif1 case casex casez cell cmos config deassign default defparam design disable ' +
    'edge else end endcase endconfig endfunction endgenerate endmodule endprimitive endspecify endtable endtask event for force forever ' +
    'fork function generate genvar highz0 highz1 if ifnone incdir include initial inout input instance integer join large liblist library ' +
    'localparam macromodule medium module nand negedge nmos nor noshowcancelled not notif0 notif1 or output parameter pmos posedge primitive ' +
    'pull0 pull1 pulldown pullup pulsestyle_onevent pulsestyle_ondetect rcmos real realtime reg release repeat rnmos rpmos rtran rtranif0 ' +
    'rtranif1 scalared showcancelled signed small specify specparam strong0 strong1 supply0 supply1 table task time tran tranif0 tranif1 ' +
    'tri tri0 tri1 triand trior trireg unsigned use uwire vectored wait wand weak0 weak1 while wire wor xnor xor ' +
    'alias always_comb always_ff always_latch assert assume before bind bins binsof bit break byte chandle class clocking const constraint ' +
    'context continue cover covergroup coverpoint cross dist do endclass endclocking endgroup endinterface endpackage endprogram endproperty ' +
    'endsequence enum expect export extends extern final first_match foreach forkjoin iff ignore_bins illegal_bins import inside int interface ' +
    'intersect join_any join_none local logic longint matches modport new null package packed priority program property protected pure rand ' +
    'randc randcase randsequence ref return sequence shortint shortreal solve static string struct super tagged this throughout timeprecision ' +
    'timeunit type typedef union unique var virtual void wait_order wildcard with within'
  ).split(' '),
);

/**
 * The scope both external engines put the design under in their raw VCD: Verilator's C++ harness
 * names its root `TOP` and the top module instance after the module; the Icarus testbench copies
 * that, as a module named `TOP`. engines/harness/engineTrace.ts rewrites those traces without it; no trace
 * a user sees has it.
 */
export const VCD_ROOT = 'TOP';

/** Names a user's module would clash with: the keywords, and the Icarus testbench's module. */
const RESERVED: ReadonlySet<string> = new Set([...KEYWORDS, VCD_ROOT]);

/** What a keyword's Verilog spelling adds. */
const ESCAPE = '_v';

/**
 * The Verilog spelling of a user name: unchanged unless it is a keyword (or `TOP`, the
 * testbench's), or a keyword followed by escapes (`input_v`, `input_v_v`), which get one more `_v`: `input` → `input_v`, `input_v` →
 * `input_v_v`. The escape is therefore one-to-one, so names distinct in the DSL stay distinct in
 * Verilog, and it is a pure function of the name, so a child's port, the parent's connection, the
 * manifest and every engine's trace agree without sharing state. Apply it once, to DSL names:
 * a module's IR name is already its Verilog spelling (moduleNameFor), and `begin_v` would become
 * `begin_v_v`.
 */
export function verilogIdentifier(name: string): string {
  let stem = name;
  while (stem.endsWith(ESCAPE)) stem = stem.slice(0, -ESCAPE.length);
  return RESERVED.has(stem) ? `${name}${ESCAPE}` : name;
}
