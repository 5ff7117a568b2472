import { Button, Flex, HStack, NativeSelect, Text, chakra } from '@chakra-ui/react';
import { PAGE_SIZE_OPTIONS, pageCount } from './patient-list-query.ts';

export interface PatientsPaginationProps {
  page: number;
  pageSize: number;
  total: number;
  disabled: boolean;
  onPage: (page: number) => void;
  onPageSize: (pageSize: number) => void;
}

export function PatientsPagination({ page, pageSize, total, disabled, onPage, onPageSize }: PatientsPaginationProps) {
  const pages = pageCount(total, pageSize);
  // A size typed into the address stays selectable instead of showing a wrong one.
  const sizes: readonly number[] = PAGE_SIZE_OPTIONS.some((size) => size === pageSize)
    ? PAGE_SIZE_OPTIONS
    : [...PAGE_SIZE_OPTIONS, pageSize].sort((a, b) => a - b);

  return (
    <Flex as="nav" aria-label="Pagination" data-testid="patients-pagination" align="center" justify="space-between" wrap="wrap" gap="4" mt="4">
      <HStack gap="2">
        <chakra.label htmlFor="patients-page-size" textStyle="sm" color="fg.muted" whiteSpace="nowrap">
          Rows per page
        </chakra.label>
        <NativeSelect.Root size="sm" width="5.5rem">
          <NativeSelect.Field
            id="patients-page-size"
            value={String(pageSize)}
            onChange={(event) => onPageSize(Number(event.currentTarget.value))}
          >
            {sizes.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </HStack>
      <HStack gap="3">
        <Text textStyle="sm" data-testid="page-indicator" aria-live="polite">
          Page {Math.min(page, pages)} of {pages}
        </Text>
        <Button size="sm" variant="outline" onClick={() => onPage(page - 1)} disabled={disabled || page <= 1}>
          Previous
        </Button>
        <Button size="sm" variant="outline" onClick={() => onPage(page + 1)} disabled={disabled || page >= pages}>
          Next
        </Button>
      </HStack>
    </Flex>
  );
}
