import { Box, Button, HStack, Progress, Stack, Text } from '@chakra-ui/react';
import type { ImportRejected } from '../../../domain/imports.ts';
import { COUNT_FORMAT, formatBytes } from './upload-format.ts';
import { rejectionSentences } from './upload-request.ts';

export interface ChosenFile {
  /** Stable within the page (path, size and modification time). */
  key: string;
  file: File;
  /** Where the file is in a chosen folder ('study/DICOM/IM0001'), or its name. */
  path: string;
}

/**
 * Rows listed one by one: a whole study holds up to 2,000 files, and a row each (with its progress
 * bar redrawn on every progress event) would slow the page down. Files with a problem are always listed.
 */
export const MAX_LISTED_FILES = 50;

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
  const refusedOf = (file: File) => (rejection?.fileName === file.name ? rejectionSentences(rejection) : null);
  const listed = files
    .map((chosen, index) => ({ ...chosen, index }))
    .filter(({ file, index }) => index < MAX_LISTED_FILES || file.size > maxFileBytes || refusedOf(file) !== null);
  const unlisted = files.length - listed.length;
  const unlistedBytes = files.reduce((sum, { file }) => sum + file.size, 0) - listed.reduce((sum, { file }) => sum + file.size, 0);
  return (
    <Stack as="ul" listStyleType="none" gap="2" aria-label="Chosen files" data-testid="chosen-files">
      {listed.map(({ key, file, path, index }) => {
        const tooLarge = file.size > maxFileBytes;
        const refused = refusedOf(file);
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
                <Text fontWeight="medium" truncate title={path}>
                  {file.name}
                </Text>
                {path !== file.name ? (
                  <Text textStyle="xs" color="fg.muted" truncate title={path}>
                    {path}
                  </Text>
                ) : null}
                <Text textStyle="sm" color="fg.muted" data-testid="file-size">
                  {formatBytes(file.size)}
                </Text>
              </Stack>
              {fraction === null ? (
                <Button size="xs" variant="ghost" disabled={disabled} aria-label={`Remove ${path}`} onClick={() => onRemove(key)}>
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
                <Progress.Track aria-label={`Upload of ${path}`} aria-valuetext={`${percent}% sent`}>
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
      {unlisted > 0 ? (
        <Text as="li" textStyle="sm" color="fg.muted" px="4" data-testid="unlisted-files">
          and {COUNT_FORMAT.format(unlisted)} more {unlisted === 1 ? 'file' : 'files'} ({formatBytes(unlistedBytes)})
        </Text>
      ) : null}
    </Stack>
  );
}
