//! The public simulator's memory, cycle by cycle, for reads: RamSim's record window in front of
//! Ramulator2's HBM2 channel controllers (FR-FCFS, open rows, the JEDEC timings of
//! `HBM2_2Gbps`).
//!
//! The block model prices a stream by its bytes and records. That is right for long runs, and
//! wrong for the quotient's gathers: each of 256 points reads one row of four LDE matrices at
//! row `rev(i)`, so a batch's rows lie `2^(lde_bits − 8)` rows apart and reach only a few DRAM
//! banks. Every such record opens a DRAM row; a bank opens one row per `tRAS + tRP` = 24 cycles
//! and a pseudo-channel four per `tFAW` = 15, so the cost is set by how the addresses fall on
//! banks, not by their bytes (RamSim takes 3,960 cycles a batch at Fibonacci's 2^19 rows and
//! 14,400 at Factorial's 2^23 for the same bytes). This module replays the records themselves.
//!
//! What it models, from the simulator's sources (`thirdparty/ramsim`):
//!
//! - **Front end.** One record admitted per cycle while fewer than 17 are still being sent
//!   (`maxPendEntry: 16`). A record splits into 64-byte requests at 64-byte steps from its
//!   first byte; each cycle a record sends requests in order until a channel refuses one.
//!   A record is done when its last request's data returns.
//! - **Address map.** `RoBaRaCoCh` over 16-byte transfers: channel (7 bits for the simulator's
//!   128; [`HbmTimings::with_channels`] for others), column (5), pseudo-channel (1), bank
//!   group (2), bank (2), row (14).
//! - **Controller**, one per channel, one command per cycle: a read buffer of 33 requests, an
//!   active buffer for requests whose row is being opened (served first), FR-FCFS (a request
//!   whose next command is ready, then the oldest); the next command of a request is ACT (bank
//!   closed), RD (its row open) or PRE (another row open); a PRE that would close a row an
//!   active request waits on is held back.
//! - **Timings** (cycles at 1 GHz): ACT→RD 7, ACT→PRE 17, PRE→ACT 7, ACT→ACT 19 in a bank,
//!   3 in a bank group and 2 in a pseudo-channel, four ACTs per 15 cycles in a pseudo-channel,
//!   a 2-cycle ACT command on the channel, RD→RD 4 (data bus) in a pseudo-channel and 2 in a
//!   bank group, RD→PRE 3, read latency `tCL + tBL` = 11.
//!
//! Left out: writes and the write buffer (gathers only read), and refresh (the model stays
//! within ±3 % of RamSim without it: `tests/unizk.rs` pins the measured traces).

use std::collections::VecDeque;

/// HBM2 `HBM2_2Gbps` timings in memory cycles, and RamSim's front end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HbmTimings {
    /// Data-bus cycles of one request (`nBL`).
    pub burst: u64,
    /// RD to data (`nCL`).
    pub cas: u64,
    /// ACT to RD (`nRCDRD`).
    pub act_to_read: u64,
    /// PRE to ACT (`nRP`).
    pub precharge: u64,
    /// ACT to PRE (`nRAS`).
    pub act_to_precharge: u64,
    /// ACT to ACT in one bank (`nRC`).
    pub act_to_act_bank: u64,
    /// ACT to ACT in one bank group (`nRRDL`).
    pub act_to_act_group: u64,
    /// ACT to ACT in one pseudo-channel (`nRRDS`).
    pub act_to_act_pseudo: u64,
    /// The four-activation window in a pseudo-channel (`nFAW`).
    pub four_act_window: u64,
    /// RD to RD in one bank group (`nCCDL`).
    pub read_to_read_group: u64,
    /// RD to PRE in one bank (`nRTPL`).
    pub read_to_precharge: u64,
    /// Cycles an ACT holds the channel's command bus.
    pub act_command: u64,
    /// Requests a channel's read buffer holds (Ramulator2's `max_size` 32, compared with `<=`).
    pub read_buffer: usize,
    /// Records RamSim keeps in flight before it stops admitting (`maxPendEntry`).
    pub window: usize,
    /// Bytes of one request RamSim sends.
    pub request_bytes: u64,
    /// log2 of the channels (7: the simulator's 128), the lowest bits above the transfer.
    pub channel_bits: u32,
}

impl HbmTimings {
    /// The simulator's configuration (`configs/*.yaml`).
    pub const UNIZK_SIM: Self = Self {
        burst: 4,
        cas: 7,
        act_to_read: 7,
        precharge: 7,
        act_to_precharge: 17,
        act_to_act_bank: 19,
        act_to_act_group: 3,
        act_to_act_pseudo: 2,
        four_act_window: 15,
        read_to_read_group: 2,
        read_to_precharge: 3,
        act_command: 2,
        read_buffer: 33,
        window: 16,
        request_bytes: 64,
        channel_bits: 7,
    };

    /// These timings on `channels` channels (rounded up to a power of two, at most 2^12).
    pub fn with_channels(self, channels: u32) -> Self {
        Self {
            // ⌈log2 channels⌉ without overflowing at u32::MAX.
            channel_bits: (u32::BITS - channels.saturating_sub(1).leading_zeros()).min(12),
            ..self
        }
    }
}

/// Columns of 16-byte transfers, pseudo-channels per channel, bank groups, banks per group,
/// rows.
const COLUMN_BITS: u32 = 5;
const PSEUDO_BITS: u32 = 1;
const GROUP_BITS: u32 = 2;
const BANK_BITS: u32 = 2;
const ROW_BITS: u32 = 14;
const TRANSFER_BITS: u32 = 4;
const BANKS_PER_PSEUDO: usize = 1 << (GROUP_BITS + BANK_BITS);
const BANKS_PER_CHANNEL: usize = BANKS_PER_PSEUDO << PSEUDO_BITS;

/// Where one 64-byte request lands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Target {
    channel: usize,
    /// Bank index within the channel: pseudo-channel, group, bank.
    bank: usize,
    row: u32,
}

fn map(channel_bits: u32, addr: u64) -> Target {
    let a = addr >> TRANSFER_BITS;
    let field = |shift: u32, bits: u32| ((a >> shift) & ((1 << bits) - 1)) as usize;
    let channel = field(0, channel_bits);
    let mut shift = channel_bits + COLUMN_BITS;
    let pseudo = field(shift, PSEUDO_BITS);
    shift += PSEUDO_BITS;
    let group = field(shift, GROUP_BITS);
    shift += GROUP_BITS;
    let bank = field(shift, BANK_BITS);
    shift += BANK_BITS;
    let row = field(shift, ROW_BITS) as u32;
    Target {
        channel,
        bank: (pseudo << (GROUP_BITS + BANK_BITS)) | (group << BANK_BITS) | bank,
        row,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Command {
    Act,
    Pre,
    Read,
}

#[derive(Debug, Clone, Copy)]
struct Request {
    record: usize,
    target: Target,
    arrive: u64,
    /// The record's last request: its data completes the record.
    last: bool,
}

#[derive(Debug, Clone, Copy, Default)]
struct Bank {
    open: Option<u32>,
    next_act: u64,
    next_pre: u64,
    next_read: u64,
}

#[derive(Debug, Clone)]
struct Channel {
    banks: [Bank; BANKS_PER_CHANNEL],
    /// Per pseudo-channel: next ACT, next RD, the last four ACTs.
    pseudo_act: [u64; 2],
    pseudo_read: [u64; 2],
    recent_acts: [VecDeque<u64>; 2],
    /// Per bank group (pseudo-channel × group): next ACT, next RD.
    group_act: [u64; 8],
    group_read: [u64; 8],
    /// The command bus after an ACT.
    next_row_command: u64,
    read_buffer: Vec<Request>,
    active: Vec<Request>,
    /// Reads issued, in order of their data: (cycle the data is back, request).
    returning: VecDeque<(u64, Request)>,
}

impl Channel {
    fn new() -> Self {
        Self {
            banks: [Bank::default(); BANKS_PER_CHANNEL],
            pseudo_act: [0; 2],
            pseudo_read: [0; 2],
            recent_acts: [VecDeque::new(), VecDeque::new()],
            group_act: [0; 8],
            group_read: [0; 8],
            next_row_command: 0,
            read_buffer: Vec::new(),
            active: Vec::new(),
            returning: VecDeque::new(),
        }
    }

    fn idle(&self) -> bool {
        self.read_buffer.is_empty() && self.active.is_empty() && self.returning.is_empty()
    }

    fn command(&self, r: &Request) -> Command {
        match self.banks[r.target.bank].open {
            None => Command::Act,
            Some(row) if row == r.target.row => Command::Read,
            Some(_) => Command::Pre,
        }
    }

    fn ready(&self, t: &HbmTimings, command: Command, bank: usize, now: u64) -> bool {
        let pseudo = bank / BANKS_PER_PSEUDO;
        let group = bank / (1 << BANK_BITS);
        let b = &self.banks[bank];
        match command {
            Command::Act => {
                let window = &self.recent_acts[pseudo];
                let faw = if window.len() == 4 {
                    window[0] + t.four_act_window
                } else {
                    0
                };
                now >= b.next_act
                    && now >= self.next_row_command
                    && now >= self.pseudo_act[pseudo]
                    && now >= self.group_act[group]
                    && now >= faw
            }
            Command::Pre => now >= b.next_pre && now >= self.next_row_command,
            Command::Read => {
                now >= b.next_read
                    && now >= self.pseudo_read[pseudo]
                    && now >= self.group_read[group]
            }
        }
    }

    fn issue(&mut self, t: &HbmTimings, command: Command, target: Target, now: u64) {
        let bank = target.bank;
        let pseudo = bank / BANKS_PER_PSEUDO;
        let group = bank / (1 << BANK_BITS);
        let raise = |slot: &mut u64, at: u64| *slot = (*slot).max(at);
        match command {
            Command::Act => {
                let b = &mut self.banks[bank];
                b.open = Some(target.row);
                raise(&mut b.next_act, now + t.act_to_act_bank);
                raise(&mut b.next_read, now + t.act_to_read);
                raise(&mut b.next_pre, now + t.act_to_precharge);
                raise(&mut self.next_row_command, now + t.act_command);
                raise(&mut self.pseudo_act[pseudo], now + t.act_to_act_pseudo);
                raise(&mut self.group_act[group], now + t.act_to_act_group);
                let window = &mut self.recent_acts[pseudo];
                if window.len() == 4 {
                    window.pop_front();
                }
                window.push_back(now);
            }
            Command::Pre => {
                let b = &mut self.banks[bank];
                b.open = None;
                raise(&mut b.next_act, now + t.precharge);
            }
            Command::Read => {
                raise(&mut self.banks[bank].next_pre, now + t.read_to_precharge);
                raise(&mut self.pseudo_read[pseudo], now + t.burst);
                raise(&mut self.group_read[group], now + t.read_to_read_group);
            }
        }
    }

    /// FR-FCFS over one buffer: the oldest request whose next command is ready, else the oldest.
    fn best(&self, t: &HbmTimings, buffer: &[Request], now: u64) -> Option<(usize, Command, bool)> {
        let mut best: Option<(usize, Command, bool)> = None;
        for (i, r) in buffer.iter().enumerate() {
            let command = self.command(r);
            let ready = self.ready(t, command, r.target.bank, now);
            let better = match best {
                None => true,
                Some((j, _, best_ready)) => {
                    (ready && !best_ready) || (ready == best_ready && r.arrive < buffer[j].arrive)
                }
            };
            if better {
                best = Some((i, command, ready));
            }
        }
        best
    }

    /// One controller cycle: the oldest returning read's data, then one command. Returns the
    /// record a finished read completes.
    fn tick(&mut self, t: &HbmTimings, now: u64) -> Option<usize> {
        let mut done = None;
        if let Some(&(at, r)) = self.returning.front() {
            if at <= now {
                self.returning.pop_front();
                if r.last {
                    done = Some(r.record);
                }
            }
        }
        let from_active = self
            .best(t, &self.active, now)
            .filter(|&(_, _, ready)| ready);
        let (in_active, (i, command, ready)) = match from_active {
            Some(pick) => (true, pick),
            None => match self.best(t, &self.read_buffer, now) {
                Some(pick) => (false, pick),
                None => return done,
            },
        };
        if !ready {
            return done;
        }
        let request = if in_active {
            self.active[i]
        } else {
            self.read_buffer[i]
        };
        if command == Command::Pre
            && self
                .active
                .iter()
                .any(|a| a.target.bank == request.target.bank)
        {
            return done;
        }
        self.issue(t, command, request.target, now);
        match command {
            Command::Read => {
                if in_active {
                    self.active.remove(i);
                } else {
                    self.read_buffer.remove(i);
                }
                self.returning.push_back((now + t.cas + t.burst, request));
            }
            Command::Act => {
                if !in_active {
                    self.read_buffer.remove(i);
                    self.active.push(request);
                }
            }
            Command::Pre => {}
        }
        done
    }
}

/// One read record of a trace: `size` bytes from `addr`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadRecord {
    /// First byte.
    pub addr: u64,
    /// Bytes (at least one).
    pub size: u64,
}

/// Cycles RamSim takes to read `records`, admitted in order with no dependencies, from an idle
/// memory to the last data.
///
/// Memory stays bounded by the window whatever the records' sizes; time is one loop turn per
/// memory cycle, so the caller bounds the requests (the UniZK lowering replays at most
/// `MAX_REPLAYED_REQUESTS` a kernel). Addresses wrap at 2^64.
pub fn replay_reads(timings: &HbmTimings, records: &[ReadRecord]) -> u64 {
    let t = timings;
    let mut channels: Vec<Channel> = (0..1usize << t.channel_bits.min(12))
        .map(|_| Channel::new())
        .collect();
    let request_bytes = t.request_bytes.max(1);
    // Records being sent: (record, its next request's address, requests still to send).
    let mut sending: VecDeque<(usize, u64, u64)> = VecDeque::new();
    let mut outstanding = 0usize;
    let mut next = 0usize;
    let mut now = 0u64;
    let mut busy: Vec<usize> = Vec::new();
    while next < records.len() || !sending.is_empty() || outstanding > 0 {
        now += 1;
        // Front end: each record sends what the channels take, in order.
        let mut i = 0;
        while i < sending.len() {
            let (record, addr, left) = &mut sending[i];
            while *left > 0 {
                let target = map(t.channel_bits.min(12), *addr);
                let ch = &mut channels[target.channel];
                if ch.read_buffer.len() >= t.read_buffer {
                    break;
                }
                if ch.idle() {
                    busy.push(target.channel);
                }
                *left -= 1;
                *addr = addr.wrapping_add(request_bytes);
                ch.read_buffer.push(Request {
                    record: *record,
                    target,
                    arrive: now,
                    last: *left == 0,
                });
            }
            if *left == 0 {
                sending.remove(i);
            } else {
                i += 1;
            }
        }
        if next < records.len() && sending.len() <= t.window {
            let r = records[next];
            sending.push_back((next, r.addr, r.size.max(1).div_ceil(request_bytes)));
            outstanding += 1;
            next += 1;
        }
        // Memory: every channel with work ticks.
        busy.sort_unstable();
        busy.dedup();
        busy.retain(|&c| {
            if channels[c].tick(t, now).is_some() {
                outstanding -= 1;
            }
            !channels[c].idle()
        });
    }
    now
}

/// The rows of one LDE matrix that a quotient batch gathers (plonky2's
/// `get_lde_values(i, step)`, as the simulator's `get_lde_values_addr` addresses them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GatherPattern {
    /// log2 of the matrix's rows (the LDE size).
    pub lde_bits: u32,
    /// log2 of the step between consecutive points' rows (plonky2's `step`).
    pub stride_log: u32,
    /// Bytes between consecutive rows (the leaf width).
    pub pitch: u64,
    /// Bytes read per row.
    pub bytes: u64,
    /// Row offset in points (the next point: `8` for plonky2's `g·x` at rate 3).
    pub shift: u64,
    /// Where the matrix starts (the simulator's allocator aligns to 4 KiB).
    pub base: u64,
}

impl GatherPattern {
    /// Matrix number `slot` of a trace, at `(slot + 1) · 16 GiB`: the simulator's first-fit
    /// allocator puts large LDEs far apart on 4 KiB boundaries, so the row order within each,
    /// not the bases, decides the banks.
    pub fn in_slot(
        slot: u64,
        lde_bits: u32,
        stride_log: u32,
        pitch: u64,
        bytes: u64,
        shift: u64,
    ) -> Self {
        Self {
            lde_bits,
            stride_log,
            pitch,
            bytes,
            shift,
            base: slot.saturating_add(1).saturating_mul(1 << 34),
        }
    }

    /// The record of point `i`: row `rev((i + shift) · step)`, `bytes` from its start (the
    /// simulator merges a row's elements into one range ending at its last element's first
    /// byte).
    ///
    /// Any field values give a record: a matrix of 2^64 rows or more is taken as 2^63, and
    /// addresses wrap at 2^64.
    pub fn record(&self, point: u64) -> ReadRecord {
        let bits = self.lde_bits.min(63);
        let stride = self.stride_log.min(bits);
        let mask = (1u64 << (bits - stride)) - 1;
        let index = ((point.wrapping_add(self.shift)) & mask) << stride;
        let row = if bits == 0 {
            0
        } else {
            index.reverse_bits() >> (64 - bits)
        };
        ReadRecord {
            addr: self.base.wrapping_add(row.wrapping_mul(self.pitch)),
            size: self.bytes,
        }
    }
}

/// The bank-parallelism probe: `count` records of `bytes`, each opening a new DRAM row of
/// channel 0, spread round-robin over `banks` banks of its first pseudo-channel (17 … 32 reach
/// into the second).
pub fn bank_probe(banks: u64, bytes: u64, count: u64) -> Vec<ReadRecord> {
    let banks = banks.clamp(1, BANKS_PER_CHANNEL as u64);
    (0..count)
        .map(|k| ReadRecord {
            // Pseudo-channel, group and bank are address bits 16 … 20; rows start at bit 21.
            addr: ((k % banks) << 16) | ((k / banks + 1) << 21),
            size: bytes,
        })
        .collect()
}

/// The records of quotient batches `first..first + count` of `points` points each: per batch,
/// every pattern's rows in turn (the simulator's order).
pub fn batch_records(
    patterns: &[GatherPattern],
    points: u64,
    first: u64,
    count: u64,
) -> Vec<ReadRecord> {
    let mut records = Vec::new();
    for b in first..first + count {
        for p in patterns {
            records.extend((b * points..(b + 1) * points).map(|i| p.record(i)));
        }
    }
    records
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_address_map_is_robaracoch_over_16_byte_transfers() {
        let map = |addr| map(7, addr);
        assert_eq!(map(0x10).channel, 1);
        assert_eq!(map(0x7f0).channel, 127);
        assert_eq!(
            map(0x800),
            Target {
                channel: 0,
                bank: 0,
                row: 0
            }
        );
        let pseudo = map(1 << 16);
        assert_eq!((pseudo.bank, pseudo.row), (16, 0));
        assert_eq!(map(1 << 17).bank, 4);
        assert_eq!(map(1 << 19).bank, 1);
        assert_eq!(map(1 << 21).row, 1);
        assert_eq!(super::map(5, 1 << 9).channel, 0, "32 channels: 5 bits");
        assert_eq!(HbmTimings::UNIZK_SIM.with_channels(32).channel_bits, 5);
        assert_eq!(HbmTimings::UNIZK_SIM.with_channels(0).channel_bits, 0);
        assert_eq!(
            HbmTimings::UNIZK_SIM.with_channels(u32::MAX).channel_bits,
            12
        );
    }

    #[test]
    fn one_bank_opens_a_row_every_24_cycles() {
        // Each record a new row of bank 0 on channel 0: tRAS + tRP per record.
        let records: Vec<ReadRecord> = (0..256)
            .map(|k| ReadRecord {
                addr: k << 21,
                size: 16,
            })
            .collect();
        let cycles = replay_reads(&HbmTimings::UNIZK_SIM, &records) as f64 / 256.0;
        assert!((cycles - 24.0).abs() < 0.5, "{cycles}");
    }

    #[test]
    fn a_stream_moves_64_bytes_per_request_on_a_quarter_of_the_channels() {
        // 4 MiB in 64 KiB records: 32 channels × 2 pseudo-channels × 64 B per 4 cycles.
        let records: Vec<ReadRecord> = (0..64)
            .map(|k| ReadRecord {
                addr: k << 16,
                size: 1 << 16,
            })
            .collect();
        let cycles = replay_reads(&HbmTimings::UNIZK_SIM, &records) as f64;
        let ideal = f64::from(4u32 << 20) / 1024.0;
        assert!(
            cycles > ideal && cycles < 1.1 * ideal,
            "{cycles} against {ideal}"
        );
    }

    #[test]
    fn hostile_records_wrap_and_stay_bounded() {
        // A record ending past 2^64, and a request size of 0 taken as 1.
        let t = HbmTimings {
            request_bytes: 0,
            ..HbmTimings::UNIZK_SIM
        };
        let records = [ReadRecord {
            addr: u64::MAX - 1,
            size: 4,
        }];
        assert!(replay_reads(&t, &records) > 0);
        let wrap = [ReadRecord {
            addr: u64::MAX - 63,
            size: 128,
        }];
        assert!(replay_reads(&HbmTimings::UNIZK_SIM, &wrap) > 0);
        assert!(replay_reads(&HbmTimings::UNIZK_SIM, &[]) == 0);
    }

    #[test]
    fn gather_rows_are_bit_reversed() {
        let p = GatherPattern {
            lde_bits: 4,
            stride_log: 0,
            pitch: 100,
            bytes: 10,
            shift: 0,
            base: 4096,
        };
        assert_eq!(p.record(1).addr, 4096 + 8 * 100);
        // A step of 2: point 1 is index 2, row rev(0010) = 0100.
        let strided = GatherPattern { stride_log: 1, ..p };
        assert_eq!(strided.record(1).addr, 4096 + 4 * 100);
        assert_eq!(
            strided.record(8).addr,
            4096,
            "points wrap at 2^(bits − stride)"
        );
        let next = GatherPattern { shift: 2, ..p };
        assert_eq!(next.record(15).addr, 4096 + 8 * 100);
        assert_eq!(batch_records(&[p, next], 4, 1, 2).len(), 16);
        // Hostile fields: no overflow, a record all the same.
        let hostile = GatherPattern {
            lde_bits: u32::MAX,
            stride_log: u32::MAX,
            pitch: u64::MAX,
            bytes: u64::MAX,
            shift: u64::MAX,
            base: u64::MAX,
        };
        assert_eq!(hostile.record(u64::MAX).size, u64::MAX);
        let wide = GatherPattern {
            stride_log: 0,
            shift: 0,
            ..hostile
        };
        assert_eq!(wide.record(0).addr, u64::MAX, "point 0 is row 0 of 2^63");
        assert_eq!(
            wide.record(1 << 62).addr,
            u64::MAX.wrapping_add(u64::MAX),
            "row 1 wraps"
        );
    }
}
