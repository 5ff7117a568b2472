/**
 * Places the plot's marker labels (MLA, references) on one row so that none overlaps another: each
 * label wants to start at its marker; labels that would collide are pushed apart as a group, the
 * group centred where its labels want to be, so each stays as near its marker as the others allow.
 * Pure, so that it can be tested without a browser.
 */

export interface LabelRequest {
  /** Where the label would start if it were alone (its marker's x, say). */
  readonly x: number;
  readonly width: number;
}

export interface LabelBounds {
  /** The row's left and right ends: no label leaves them, when the row is wide enough for all. */
  readonly min: number;
  readonly max: number;
  /** Space kept between two labels. */
  readonly gap?: number;
}

interface Block {
  /** Indices into the requests, in x order. */
  readonly members: number[];
  /** Total width of the members and the gaps between them. */
  width: number;
  /** Sum over the members of (wanted x − offset of the member inside the block): the block's ideal start times its size. */
  wanted: number;
  start: number;
}

/**
 * The start x of each label, in the order given. Labels keep their left-to-right order; overlapping
 * ones are merged into blocks placed at the mean of their members' wishes (the least squared shift
 * for a block), then blocks are kept inside [min, max]. When the labels do not fit between min and
 * max at all, they still do not overlap: they run on past max.
 */
export function layOutLabels(requests: readonly LabelRequest[], { min, max, gap = 4 }: LabelBounds): number[] {
  const order = requests.map((_, index) => index).sort((a, b) => requests[a]!.x - requests[b]!.x || a - b);
  const clamp = (block: Block) => Math.max(min, Math.min(max - block.width, block.wanted / block.members.length));
  const blocks: Block[] = [];
  for (const index of order) {
    const request = requests[index]!;
    let block: Block = { members: [index], width: request.width, wanted: request.x, start: 0 };
    block.start = clamp(block);
    // Merge with the block before while they overlap: the merged block moves to its members' mean wish.
    for (let previous = blocks.at(-1); previous && previous.start + previous.width + gap > block.start; previous = blocks.at(-1)) {
      blocks.pop();
      const offset = previous.width + gap;
      block = {
        members: [...previous.members, ...block.members],
        width: offset + block.width,
        // Each moved member wants its block to start `offset` further left than it wants itself.
        wanted: previous.wanted + block.wanted - offset * block.members.length,
        start: 0,
      };
      block.start = clamp(block);
    }
    blocks.push(block);
  }
  const starts = new Array<number>(requests.length);
  for (const block of blocks) {
    // A block wider than the row starts at min and runs past max rather than overlap.
    let x = block.width > max - min ? min : block.start;
    for (const index of block.members) {
      starts[index] = x;
      x += requests[index]!.width + gap;
    }
  }
  return starts;
}
