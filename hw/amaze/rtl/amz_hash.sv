// Miyaguchi-Preneel hash over the MiMC cipher (AMAZE's mimc_hash; circomlib MultiMiMC7):
//
//   h <- key (the IV, 0 in circomlib and AMAZE);  for each block m: h <- h + m + E_h(m)
//
// One block at a time (each block's key is the previous chaining value, so blocks of one message
// cannot be overlapped). start_i loads the key; blocks follow with m_valid_i/m_ready_o, the last
// one flagged by m_last_i; h_valid_o is high for one cycle with the digest. (The digest of an
// empty message is the key itself and needs no hardware.) Any cipher design can be chosen with
// the same parameters as amz_cipher.
module amz_hash #(
  parameter int Arch = amz_pkg::ArchPipelined,
  parameter int Reduction = amz_pkg::RedBarrettChunked,
  parameter int NumMul = 1,
  parameter int Rounds = 91,
  parameter int ChunkW = 27
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         start_i,
  input  logic [253:0] key_i,
  input  logic         m_valid_i,
  output logic         m_ready_o,
  input  logic [253:0] m_i,
  input  logic         m_last_i,
  output logic         h_valid_o,
  output logic [253:0] h_o
);
  `include "amz_consts.svh"
  localparam int N = AmzWidth;

  `include "amz_add_mod.svh"

  localparam logic [1:0] Idle = 2'd0, Block = 2'd1, Busy = 2'd2, Done = 2'd3;
  logic [1:0]   state_q;
  logic [N-1:0] h_q, m_q;
  logic         last_q;
  logic         c_valid, c_ready, c_out_valid;
  logic [N-1:0] c_out;

  assign m_ready_o = (state_q == Block) && c_ready;
  assign c_valid = (state_q == Block) && m_valid_i;

  amz_cipher #(.Arch(Arch), .Reduction(Reduction), .NumMul(NumMul), .Rounds(Rounds), .ChunkW(ChunkW)) u_cipher (
    .clk_i, .rst_ni, .valid_i(c_valid), .ready_o(c_ready), .x_i(m_i), .k_i(h_q),
    .valid_o(c_out_valid), .y_o(c_out)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= Idle;
    end else begin
      unique case (state_q)
        Idle:    if (start_i) state_q <= Block;
        Block:   if (m_valid_i && c_ready) state_q <= Busy;
        Busy:    if (c_out_valid) state_q <= last_q ? Done : Block;
        default: state_q <= Idle;  // Done
      endcase
    end
  end

  always_ff @(posedge clk_i) begin
    if (state_q == Idle && start_i) h_q <= key_i;
    if (state_q == Block && m_valid_i && c_ready) begin
      m_q <= m_i;
      last_q <= m_last_i;
    end
    if (state_q == Busy && c_out_valid) h_q <= add_mod(add_mod(h_q, m_q), c_out);
  end

  assign h_valid_o = (state_q == Done);
  assign h_o = h_q;
endmodule
