import { Table, VisuallyHidden } from '@chakra-ui/react';

export interface TableHeadProps {
  /** What the table holds, for screen readers (the page's heading says it to everyone else). */
  caption: string;
  columns: readonly string[];
  /** Columns aligned to the end: numbers and row actions. */
  endAligned?: readonly string[];
  /** Columns whose label only screen readers hear (a column of buttons). */
  hiddenLabels?: readonly string[];
}

/** The hidden caption and the header row of a data table with plain column labels. */
export function TableHead({ caption, columns, endAligned = [], hiddenLabels = [] }: TableHeadProps) {
  return (
    <>
      <Table.Caption>
        <VisuallyHidden>{caption}</VisuallyHidden>
      </Table.Caption>
      <Table.Header>
        <Table.Row bg="bg.subtle">
          {columns.map((label) => (
            <Table.ColumnHeader key={label} scope="col" textAlign={endAligned.includes(label) ? 'end' : 'start'}>
              {hiddenLabels.includes(label) ? <VisuallyHidden>{label}</VisuallyHidden> : label}
            </Table.ColumnHeader>
          ))}
        </Table.Row>
      </Table.Header>
    </>
  );
}
