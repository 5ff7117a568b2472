import { Skeleton, Table, type SkeletonProps } from '@chakra-ui/react';

export interface SkeletonRowsProps {
  rows: number;
  /** One key a column (its label or field), in the table's order. */
  columns: readonly string[];
  /** The data-testid of every row, for tests that wait for the first answer. */
  testId?: string;
  /** The skeleton of a column, where it is not a line of text (e.g. a thumbnail). */
  skeleton?: (column: string) => SkeletonProps | undefined;
}

/** Placeholder rows of a table body while its first answer loads: a line of text in every cell. */
export function SkeletonRows({ rows, columns, testId, skeleton }: SkeletonRowsProps) {
  return (
    <>
      {Array.from({ length: rows }, (_, row) => (
        <Table.Row key={row} data-testid={testId}>
          {columns.map((column) => (
            <Table.Cell key={column}>
              <Skeleton height="4" {...skeleton?.(column)} />
            </Table.Cell>
          ))}
        </Table.Row>
      ))}
    </>
  );
}
