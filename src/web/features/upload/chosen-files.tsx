import { Box, Button, HStack, Progress, Stack, Text } from '@chakra-ui/react';
import type { ImportRejected } from '../../../domain/imports.ts';
import { formatBytes } from './upload-format.ts';
import { rejectionSentences } from './upload-request.ts';

export interface ChosenFile {
  /** Stable within the page (name, size and modification time). */
  key: string;
  file: File;
}

export interface ChosenFilesProps {
  files: readonly ChosenFile[];
  maxFileBytes: number;
  /** Fraction sent of each file (same order) while uploading, else null. */
  sent: readonly number[] | null;
  /** The server's refusal, shown next to the file it names. */
  rejection: ImportRejected | null;
  onRemove: (key: string) => void;
  disabled: boolean;
}

export function tooLargeMessage(file: File, maxFileBytes: number): string {
  return `This file is ${formatBytes(file.size)}: larger than the upload limit of ${formatBytes(maxFileBytes)} per file. Remove it to upload the others.`;
}

/** The files about to be uploaded: name, size, and what stands in their way, or how far their upload is. */
export function ChosenFiles({ files, maxFileBytes, sent, rejection, onRemove, disabled }: ChosenFilesProps) {
  return (
    <Stack as="ul" listStyleType="none" gap="2" aria-label="Chosen files" data-testid="chosen-files">
      {files.map(({ key, file }, index) => {
        const tooLarge = file.size > maxFileBytes;
        const refused = rejection?.fileName === file.name ? rejectionSentences(rejection) : null;
        const fraction = sent?.[index] ?? null;
        const percent = fraction === null ? 0 : Math.round(100 * fraction);
        return (
          <Box
            as="li"
            key={key}
            data-testid="chosen-file"
            borderWidth="1px"
            borderColor={tooLarge || refused ? 'border.error' : 'border'}
            rounded="l2"
            px="4"
            py="3"
          >
            <HStack justify="space-between" gap="4">
              <Stack gap="0" minWidth="0">
                <Text fontWeight="medium" truncate title={file.name}>
                  {file.name}
                </Text>
                <Text textStyle="sm" color="fg.muted" data-testid="file-size">
                  {formatBytes(file.size)}
                </Text>
              </Stack>
              {fraction === null ? (
                <Button size="xs" variant="ghost" disabled={disabled} aria-label={`Remove ${file.name}`} onClick={() => onRemove(key)}>
                  Remove
                </Button>
              ) : (
                <Text textStyle="sm" color="fg.muted" flexShrink="0" data-testid="file-percent">
                  {percent}%
                </Text>
              )}
            </HStack>
            {fraction !== null ? (
              <Progress.Root value={percent} size="xs" mt="2" colorPalette="teal">
                <Progress.Track aria-label={`Upload of ${file.name}`} aria-valuetext={`${percent}% sent`}>
                  <Progress.Range />
                </Progress.Track>
              </Progress.Root>
            ) : null}
            {tooLarge ? (
              <Text textStyle="sm" color="fg.error" mt="2" role="alert" data-testid="file-error">
                {tooLargeMessage(file, maxFileBytes)}
              </Text>
            ) : null}
            {refused ? (
              <Box mt="2" role="alert" data-testid="file-error">
                <Text textStyle="sm" color="fg.error" fontWeight="medium">
                  {refused.reason}
                </Text>
                {refused.detail ? (
                  <Text textStyle="sm" color="fg.muted">
                    {refused.detail}
                  </Text>
                ) : null}
              </Box>
            ) : null}
          </Box>
        );
      })}
    </Stack>
  );
}
