// Modular addition a + b mod p for canonical a, b (AMAZE's galois_add), included by the modules
// that need it. Needs N and AmzModulus (amz_consts.svh) in scope. The result is assigned to the
// function name rather than returned: Yosys 0.23 reads this subset.
function automatic logic [N-1:0] add_mod(input logic [N-1:0] a, input logic [N-1:0] b);
  logic [N:0] s;
  s = (N+1)'(a) + (N+1)'(b);
  add_mod = (s >= (N+1)'(AmzModulus)) ? N'(s - (N+1)'(AmzModulus)) : N'(s);
endfunction
