// Bench and synthesis top: amz_cipher with its typed parameters chosen by integers, so that one
// build flag (-G) selects an AMAZE design (see ../designs.txt and the table in amz_cipher.sv).
module amz_cipher_top
#(
  parameter int ArchSel = 0,       // amz_pkg::ArchPipelined or ArchSequential
  parameter int ReductionSel = 0,  // amz_pkg::RedBarrettChunked, RedBarrettPlain, RedPeasant
  parameter int NumMul = 1,
  parameter int Rounds = 91,
  parameter int ChunkW = 27
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         valid_i,
  output logic         ready_o,
  input  logic [253:0] x_i,
  input  logic [253:0] k_i,
  output logic         valid_o,
  output logic [253:0] y_o
);
  amz_cipher #(
    .Arch(ArchSel),
    .Reduction(ReductionSel),
    .NumMul(NumMul),
    .Rounds(Rounds),
    .ChunkW(ChunkW)
  ) u_cipher (.*);
endmodule
