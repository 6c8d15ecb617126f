/** Mantine's light green title is below AA contrast on its tinted background: dark text instead. */
export const DARK_TITLE = { title: { color: "var(--mantine-color-dark-7)" } };
