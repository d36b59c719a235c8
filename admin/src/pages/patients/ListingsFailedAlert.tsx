import { Alert, Button } from 'antd';
import { useFailedListings } from '../../hooks/listings';

/** Shown above the fields when a listing they choose from could not be read (the selects would show codes). */
const LISTINGS_FAILED =
  'No fue posible cargar las opciones de algunos campos (país, tipo de documento…). Pulse «Reintentar» antes de guardar.';

/** The patient forms' one message for listings that failed to load, with 'Reintentar'; nothing while they load or loaded. */
export function ListingsFailedAlert() {
  const listings = useFailedListings();
  if (!listings.failed) return null;
  return (
    <Alert
      type="error"
      showIcon
      style={{ marginBottom: 16 }}
      message={LISTINGS_FAILED}
      action={
        <Button size="small" onClick={listings.retry}>
          Reintentar
        </Button>
      }
    />
  );
}
