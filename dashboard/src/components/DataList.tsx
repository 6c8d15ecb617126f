// The one table every list of the dashboard is drawn with: its loading, empty and error states, row links,
// optional selection and an expandable detail row, and the cursor pager beneath. At phone width the table
// scrolls sideways inside its container (the page itself never does) and the pager wraps; a table keeps its
// semantics for screen readers, which a card layout rebuilt with CSS would not in every browser.
import { Anchor, Button, Checkbox, Group, Table, type TableTdProps, Text } from "@mantine/core";
import { Fragment, type ReactNode } from "react";
import { Link } from "react-router";
import type { CursorPages } from "../lib/use-cursor-pages";
import { ErrorAlert } from "./ErrorAlert";

export interface DataColumn<Row> {
  /** The column's heading; a column of buttons names itself for screen readers only (`hiddenHeader`). */
  readonly header: string;
  readonly hiddenHeader?: boolean;
  readonly cell: (row: Row) => ReactNode;
  /** Makes the cell a link to this dashboard address (a row's way to its own page). */
  readonly link?: (row: Row) => string;
  readonly align?: "right";
  readonly width?: number;
  /** Per-cell attributes, such as a background for a cell in error or a test id. */
  readonly cellProps?: (row: Row) => TableTdProps & { readonly [data: `data-${string}`]: string | boolean };
  /** Long unbroken values (e-mail addresses, ids) wrap instead of widening the table. */
  readonly breakAll?: boolean;
}

export interface DataSelection<Row> {
  readonly isSelected: (row: Row) => boolean;
  readonly isDisabled?: (row: Row) => boolean;
  readonly onToggle: (row: Row, selected: boolean) => void;
  /** The accessible name of a row's checkbox, such as "Select INV-1". */
  readonly rowLabel: (row: Row) => string;
  /** The checkbox in the heading (e.g. "Select this page"). */
  readonly all?: {
    readonly label: string;
    readonly checked: boolean;
    readonly disabled: boolean;
    readonly onChange: (selected: boolean) => void;
  };
}

/** What DataList reads of a TanStack query result. */
export interface ListQuery {
  readonly isPending: boolean;
  readonly isFetching: boolean;
  readonly error: unknown;
}

export interface DataListProps<Row> {
  readonly rows: readonly Row[];
  readonly rowKey: (row: Row) => string;
  readonly columns: readonly DataColumn<Row>[];
  /**
   * The query the rows come from: its first load shows the loading text instead of the table, a later page
   * or filter being fetched marks the table busy while the previous rows stay, and its error is shown.
   */
  readonly query?: ListQuery;
  readonly loadingText?: string;
  /**
   * Shown above the table instead of the query's error (e.g. an action's error first); while there is an
   * error the empty text is not (a refusal is not "no rows").
   */
  readonly error?: unknown;
  readonly errorTitle?: string;
  readonly empty: ReactNode;
  readonly emptyTestId?: string;
  readonly rowTestId?: string;
  readonly rowProps?: (row: Row) => { readonly [data: `data-${string}`]: string | boolean };
  /** Below this width the table scrolls sideways in its container. */
  readonly minWidth: number;
  readonly highlightOnHover?: boolean;
  readonly caption?: string;
  readonly tableProps?: { readonly withTableBorder?: boolean; readonly fz?: string; readonly "data-testid"?: string };
  readonly selection?: DataSelection<Row>;
  /** A detail row under a row (null when closed); its element id is `id(row)`, for the opener's aria-controls. */
  readonly detail?: { readonly render: (row: Row) => ReactNode | null; readonly id: (row: Row) => string };
  readonly pager?: CursorPagerProps;
}

export function DataList<Row>(props: DataListProps<Row>) {
  const { rows, columns, selection, detail } = props;
  const width = columns.length + (selection === undefined ? 0 : 1);
  const error = props.error ?? props.query?.error;
  let body: ReactNode;
  if (props.query?.isPending === true) body = <Text c="dimmed">{props.loadingText ?? "Loading…"}</Text>;
  else if (rows.length === 0)
    body =
      error === null || error === undefined ? (
        <Text c="dimmed" data-testid={props.emptyTestId}>
          {props.empty}
        </Text>
      ) : null;
  else
    body = (
      <Table.ScrollContainer minWidth={props.minWidth}>
        <Table
          highlightOnHover={props.highlightOnHover ?? false}
          aria-busy={props.query?.isFetching ?? false}
          {...(props.tableProps?.withTableBorder === undefined ? {} : { withTableBorder: props.tableProps.withTableBorder })}
          {...(props.tableProps?.fz === undefined ? {} : { fz: props.tableProps.fz })}
          data-testid={props.tableProps?.["data-testid"]}
        >
          {props.caption !== undefined && <Table.Caption>{props.caption}</Table.Caption>}
          <Table.Thead>
            <Table.Tr>
              {selection !== undefined && (
                <Table.Th w={40}>
                  {selection.all === undefined ? (
                    <span className="visually-hidden">Selected</span>
                  ) : (
                    <Checkbox
                      aria-label={selection.all.label}
                      checked={selection.all.checked}
                      disabled={selection.all.disabled}
                      onChange={(e) => selection.all?.onChange(e.currentTarget.checked)}
                    />
                  )}
                </Table.Th>
              )}
              {columns.map((column) => (
                <Table.Th
                  key={column.header}
                  {...(column.align === undefined ? {} : { ta: column.align })}
                  {...(column.width === undefined ? {} : { w: column.width })}
                >
                  {column.hiddenHeader === true ? <span className="visually-hidden">{column.header}</span> : column.header}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => {
              const key = props.rowKey(row);
              const opened = detail?.render(row) ?? null;
              return (
                <Fragment key={key}>
                  <Table.Tr data-testid={props.rowTestId} {...(props.rowProps?.(row) ?? {})}>
                    {selection !== undefined && (
                      <Table.Td>
                        <Checkbox
                          aria-label={selection.rowLabel(row)}
                          checked={selection.isSelected(row)}
                          disabled={selection.isDisabled?.(row) ?? false}
                          onChange={(e) => selection.onToggle(row, e.currentTarget.checked)}
                        />
                      </Table.Td>
                    )}
                    {columns.map((column) => (
                      <Table.Td
                        key={column.header}
                        {...(column.align === undefined ? {} : { ta: column.align })}
                        {...(column.breakAll === true ? { style: { wordBreak: "break-all" } } : {})}
                        {...(column.cellProps?.(row) ?? {})}
                      >
                        {column.link === undefined ? (
                          column.cell(row)
                        ) : (
                          <Anchor component={Link} to={column.link(row)}>
                            {column.cell(row)}
                          </Anchor>
                        )}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                  {detail !== undefined && opened !== null && (
                    <Table.Tr id={detail.id(row)}>
                      <Table.Td colSpan={width}>{opened}</Table.Td>
                    </Table.Tr>
                  )}
                </Fragment>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  return (
    <>
      <ErrorAlert error={error} {...(props.errorTitle === undefined ? {} : { title: props.errorTitle })} />
      {body}
      {props.pager !== undefined && <CursorPager {...props.pager} />}
    </>
  );
}

export interface CursorPagerProps {
  readonly pages: CursorPages;
  /** The shown page's `next_cursor`: none disables "Next page". */
  readonly nextCursor: string | null | undefined;
  /** The pager's landmark name, such as "Payouts pages" (several lists can share a page). */
  readonly label: string;
  readonly previousText?: string;
  readonly nextText?: string;
  readonly size?: "xs" | "sm";
}

/** Previous / Next over a cursor stack, and the page number (announced politely when it changes). */
export function CursorPager({ pages, nextCursor, label, previousText, nextText, size = "sm" }: CursorPagerProps) {
  return (
    <Group component="nav" aria-label={label} gap="xs" wrap="wrap">
      <Button variant="default" size={size} disabled={!pages.hasPrevious} onClick={pages.previous}>
        {previousText ?? "Previous page"}
      </Button>
      <Button
        variant="default"
        size={size}
        disabled={nextCursor === null || nextCursor === undefined}
        onClick={() => pages.next(nextCursor)}
      >
        {nextText ?? "Next page"}
      </Button>
      <Text size={size} c="dimmed" aria-live="polite">
        Page {pages.page}
      </Text>
    </Group>
  );
}
