import { Text } from '@chakra-ui/react';

/** Says, above the strip and the plot, that the figures shown come from the gated frames only. */
export function GatedFiguresNote({ count }: { count: number }) {
  return (
    <Text
      px="2"
      pt="1"
      textStyle="xs"
      color="fg.muted"
      data-testid="gated-figures-note"
      title="The L-mode strip shows each end-diastolic frame stretched over its cycle; the MLA, references, area stenosis, lesion length and plaque burden are searched among these frames only. The curves and the exports keep every frame."
    >
      Gated: L-mode and figures from {count.toLocaleString('en-US')} end-diastolic frames (curves and exports: all frames)
    </Text>
  );
}
