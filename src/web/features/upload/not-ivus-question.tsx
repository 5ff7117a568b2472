import { useRef } from 'react';
import { Button, List, Text } from '@chakra-ui/react';
import { QuestionDialog } from '../../ui/question-dialog.tsx';
import type { ImportRejected } from '../../../domain/imports.ts';

export interface NotIvusQuestionProps {
  rejection: ImportRejected;
  /** Sends the same files again with confirmOtherUltrasound=true. */
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * A 409 not_ivus (issue 26): an ultrasound loop (echo, obstetric, vascular) that is not an IVUS
 * pullback. Nothing was imported. Kept, it is labelled "other ultrasound" everywhere and only
 * viewed: an IVUS analysis or report of it would be wrong, so Cancel is the focused way out.
 */
export function NotIvusQuestion({ rejection, onConfirm, onCancel }: NotIvusQuestionProps) {
  const cancel = useRef<HTMLButtonElement>(null);
  return (
    <QuestionDialog
      title="This is not an IVUS pullback"
      description={rejection.message}
      safeButton={cancel}
      onDismiss={onCancel}
      testId="not-ivus"
      footer={
        <>
          <Button ref={cancel} variant="outline" onClick={onCancel}>
            Cancel: import nothing
          </Button>
          <Button colorPalette="orange" onClick={onConfirm}>
            Import as other ultrasound (view only)
          </Button>
        </>
      }
    >
      <Text mt="3">Nothing was imported. Imported anyway, it is kept as other ultrasound, to view only:</Text>
      <List.Root mt="2" ps="5">
        <List.Item>no lumen or vessel borders, no MLA or stenosis;</List.Item>
        <List.Item>no report, CSV or Send to PACS.</List.Item>
      </List.Root>
    </QuestionDialog>
  );
}
