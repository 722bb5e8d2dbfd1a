// Shared constants of the AMAZE MiMC units (AMAZE, ICCAD'24, §4-5): the values of amz_cipher's
// Arch and Reduction parameters. (Plain int constants rather than enum-typed parameters, so the
// sources elaborate in Icarus Verilog 11 as well as in Verilator.)
package amz_pkg;

  // Arch: whether independent ciphers share the datapath.
  localparam int ArchPipelined  = 0;  // a batch of (multiplier latency + 1) interleaved ciphers
  localparam int ArchSequential = 1;  // one cipher at a time under an FSM ("b" designs, AMZ-3)

  // Reduction: how a modular multiplication is computed.
  localparam int RedBarrettChunked = 0;  // Barrett, 3-stage chunked integer multiplier (§4.2-4.3)
  localparam int RedBarrettPlain   = 1;  // Barrett, plain `x*y` products ("a"/"b" designs)
  localparam int RedPeasant        = 2;  // Russian peasant shift-and-add, no DSPs (§4.3.1)

endpackage
