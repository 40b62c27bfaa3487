import { api } from "../../api/client";

interface Positioned {
  id: string;
  position: number;
}

/**
 * The position changes that move `items[index]` one step up or down: the list in its new order
 * is numbered 0, 1, 2…, and only the items whose number changed are written (two, when the
 * positions were already dense).
 */
export function moveChanges(
  items: readonly Positioned[],
  index: number,
  step: -1 | 1,
): { id: string; position: number }[] {
  const target = index + step;
  if (target < 0 || target >= items.length) return [];
  const order = [...items];
  const [moved] = order.splice(index, 1);
  if (!moved) return [];
  order.splice(target, 0, moved);
  return order
    .map((item, position) => ({ id: item.id, position, before: item.position }))
    .filter((c) => c.position !== c.before)
    .map(({ id, position }) => ({ id, position }));
}

/** Writes position changes one after the other (each is a page write, in order). */
export async function writePositions(
  base: string,
  collection: "groups" | "components",
  changes: readonly { id: string; position: number }[],
): Promise<void> {
  for (const change of changes)
    await api(`${base}/${collection}/${change.id}`, {
      method: "PATCH",
      body: { position: change.position },
    });
}
