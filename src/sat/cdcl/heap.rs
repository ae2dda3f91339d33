//! The VSIDS order: a binary max-heap of variables keyed by activity (MiniSat's scheme:
//! bump the variables of each conflict's analysis, grow the increment instead of decaying
//! every activity, rescale when it overflows).

#[derive(Default)]
pub(super) struct Order {
    pub(super) activity: Vec<f64>,
    heap: Vec<u32>,
    /// Position of each variable in `heap` (`usize::MAX`: not in it).
    pos: Vec<usize>,
    inc: f64,
}

const ABSENT: usize = usize::MAX;
const DECAY: f64 = 0.95;

impl Order {
    pub(super) fn new() -> Order {
        Order {
            inc: 1.0,
            ..Order::default()
        }
    }

    pub(super) fn add_var(&mut self) {
        self.activity.push(0.0);
        self.pos.push(ABSENT);
        self.insert(self.pos.len() as u32 - 1);
    }

    pub(super) fn contains(&self, v: u32) -> bool {
        self.pos[v as usize] != ABSENT
    }

    pub(super) fn insert(&mut self, v: u32) {
        if self.contains(v) {
            return;
        }
        self.pos[v as usize] = self.heap.len();
        self.heap.push(v);
        self.up(self.heap.len() - 1);
    }

    /// The most active variable, removed from the heap.
    pub(super) fn pop(&mut self) -> Option<u32> {
        let top = *self.heap.first()?;
        let last = self.heap.pop().expect("non-empty");
        self.pos[top as usize] = ABSENT;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.pos[last as usize] = 0;
            self.down(0);
        }
        Some(top)
    }

    pub(super) fn bump(&mut self, v: u32) {
        let a = &mut self.activity[v as usize];
        *a += self.inc;
        if *a > 1e100 {
            for a in &mut self.activity {
                *a *= 1e-100;
            }
            self.inc *= 1e-100;
        }
        if self.contains(v) {
            self.up(self.pos[v as usize]);
        }
    }

    pub(super) fn decay(&mut self) {
        self.inc /= DECAY;
    }

    fn key(&self, i: usize) -> f64 {
        self.activity[self.heap[i] as usize]
    }

    fn place(&mut self, i: usize, v: u32) {
        self.heap[i] = v;
        self.pos[v as usize] = i;
    }

    fn up(&mut self, mut i: usize) {
        let v = self.heap[i];
        let a = self.activity[v as usize];
        while i > 0 {
            let parent = (i - 1) / 2;
            if self.key(parent) >= a {
                break;
            }
            self.place(i, self.heap[parent]);
            i = parent;
        }
        self.place(i, v);
    }

    fn down(&mut self, mut i: usize) {
        let v = self.heap[i];
        let a = self.activity[v as usize];
        loop {
            let left = 2 * i + 1;
            if left >= self.heap.len() {
                break;
            }
            let right = left + 1;
            let child = if right < self.heap.len() && self.key(right) > self.key(left) {
                right
            } else {
                left
            };
            if self.key(child) <= a {
                break;
            }
            self.place(i, self.heap[child]);
            i = child;
        }
        self.place(i, v);
    }
}
