import { ContactsBrowser } from '@/features/contacts/components/contacts-browser';
import { ListPage as ListPageOf } from '@/features/lists/routes/list-pages';

/** `/dashboard/lists/:id`: the lists feature's page with the contacts feature's browser, filtered to the list. */
export function ListPage() {
  return <ListPageOf contacts={(listId) => <ContactsBrowser fixedListId={listId} />} />;
}
