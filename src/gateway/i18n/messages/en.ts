/**
 * English: the catalog every other language is checked against (test/gateway/i18n/catalogs.test.ts), and
 * the words the pages have always shown. `{name}` placeholders are filled by `Locale.t`.
 */
export const en = {
  'page.catalogTitle': 'Print catalog',
  'card.preview': 'Preview of {name}',
  'card.minimum': 'Minimum {min} {uom} · SKU {sku}',
  'add.label': 'Add {name} to the cart',
  'add.quantity': 'Quantity ({uom})',
  'add.submit': 'Add to cart',
  'paging.label': 'Catalog pages',
  'paging.previous': 'Previous page',
  'paging.next': 'Next page',
  'paging.position': 'Page {page} of {pages} · products {first} to {last} of {total}',
  'catalog.heading': 'Choose a product to design',
  'catalog.design': 'Design {name}',
  'catalog.searchLabel': 'Search products',
  'catalog.search': 'Search',
  'catalog.showAll': 'Show all products',
  'catalog.products': 'Products',
  'catalog.cart': 'Cart ({count})',
  'catalog.foundOne': '1 product matches “{query}”.',
  'catalog.foundMany': '{count} products match “{query}”.',
  'catalog.pastLast': 'There is no page {asked}; this is the last page, {page}.',
  'catalog.noHits':
    'No product matches “{query}”. Check the spelling, try fewer words, or show all products.',
  'reorder.heading': 'Ordered before',
  'reorder.intro': 'Designs your organisation has ordered: add one to the cart as it was ordered.',
  'reorder.lastOrdered': 'Last ordered: {quantity} at {price}',
  'reorder.addLabel': 'Add {name} to the cart as ordered before',
  'reorder.unavailable': 'No longer available: its product is no longer in the catalog.',
  'reorder.chosenUnavailable':
    '{name} cannot be ordered again: its product is no longer in the catalog. Choose a product to design instead.',
  'cart.heading': 'Your cart',
  'cart.headingReadOnly': 'Your cart (read only)',
  'cart.empty': 'Your cart is empty.',
  'cart.item': 'Item',
  'cart.quantity': 'Quantity',
  'cart.unitPrice': 'Unit price',
  'cart.total': 'Total',
  'cart.cartTotal': 'Cart total',
  'cart.update': 'Update',
  'cart.remove': 'Remove',
  'cart.editDesign': 'Edit design',
  'cart.proof': 'Proof (PDF)',
  'cart.lineInfo': 'SKU {sku} · design {design} · ref {ref}',
  'cart.orderable': 'Quantities {min} to {max} {uom}',
  'cart.priceBreaks': 'price breaks {breaks}',
  'cart.keptAsSent': 'kept as sent',
  'cart.addAnother': 'Add another product',
  'cart.transfer': 'Transfer cart to procurement system',
  'cart.return': 'Return to procurement system',
  'cart.cancel': 'Cancel and return',
  'cart.transferBlocked':
    'This cart cannot be transferred until the marked quantities are changed. You can still cancel and return.',
  'cart.confirmEmpty':
    'Send an empty cart: every line of the requisition will be removed in your procurement system.',
  'cart.emptyNotConfirmed':
    'This cart is empty. Tick the box to confirm that every line of the requisition is to be removed.',
  'cart.quantityProblem': 'The quantity for {name} must be a whole number from {min} to {max}.',
  'return.sending': 'Sending your cart to your procurement system…',
  'return.cancelling': 'Returning to your procurement system without changes…',
  'return.nothingHappens': 'If nothing happens, press the button.',
  'return.button': 'Return to your procurement system',
  'return.startAgain': 'Close this window and start the punch-out again from your procurement system.',
  'error.heading': 'This page cannot be shown',
  'error.expiredHeading': 'Your punch-out session has expired',
  'error.expired':
    'For your security, catalog sessions end after a while. Return to your procurement system and punch out again; nothing in your requisition has changed.',
  'error.linkUsed':
    'This punch-out link was already used. Start the punch-out again from your procurement system.',
  'error.linkInvalid': 'This link is not valid. Start the punch-out again from your procurement system.',
  'error.transferred':
    'This cart was already sent to your procurement system. To change it, edit the requisition there.',
  'error.cancelled': 'This punch-out session was cancelled.',
  'error.readOnly': 'This cart is read only.',
  'error.notFound': 'What this page asked for is not in this catalog.',
  'error.tryLater': 'The catalog cannot answer at the moment. Please try again in a few minutes.',
  'error.generic': 'The request could not be carried out.',
  'oci.loginRefused': 'The catalog login was refused',
  'oci.hookRefused': 'The return address was refused',
  'oci.unreadable': 'The punch-in request could not be read',
  'oci.setup': 'This catalog connection is not set up correctly',
  'oci.notOpened': 'The catalog could not be opened',
  'oci.noCatalogHeading': 'No catalog here',
  'oci.noCatalog':
    "There is no OCI catalog at this address. Check the catalog's URL in your procurement system's settings.",
  'oci.transferTitle': 'Returning your cart',
  'oci.transferNotice':
    'Your cart is being returned to your procurement system. If nothing happens, press the button.',
  'oci.transferSubmit': 'Return cart',
  'oci.emptyTitle': 'Returning to your procurement system',
  'oci.emptyNotice':
    'You are returning to your procurement system without new items. If nothing happens, press the button.',
  'oci.emptySubmit': 'Return to procurement system',
  'oci.validateTitle': 'Checking your item',
  'oci.validateNotice':
    'The current price of your item is being returned to your procurement system. If nothing happens, press the button.',
  'oci.validateSubmit': 'Return item',
  'oci.searchTitle': 'Search results',
  'oci.searchNotice': 'Catalog items found for your search.',
  'oci.searchFirst':
    'The first {shown} of {total} catalog items found for your search; narrow the search to find the others.',
  'oci.searchSubmit': 'Transfer these items',
  'product.prices': 'Prices of {name}',
  'product.fromQuantity': 'From quantity',
  'product.facts': 'SKU {sku} · minimum {min} {uom}',
  'product.shipsIn': 'ships in {days} days',
  'product.requisition': 'In your requisition',
  'product.inRequisition': 'In your requisition:',
  'product.orderAgain': 'To order it again, design it anew below.',
  'product.browseAll': 'Browse the whole catalog',
  'product.searchHeading': 'Products for “{query}”',
  'product.foundOne': '1 product matches your search.',
  'product.foundMany': '{count} products match your search.',
  'product.noHits': 'No product matches “{query}”. Browse the whole catalog instead.',
  'proof.title': 'Proof',
  'proof.expiredHeading': 'This proof link has expired',
  'proof.expired':
    'Proof links work for {days} days after the cart was sent. The design is unchanged; ask your supplier for its proof.',
  'proof.invalidHeading': 'This proof link is not valid',
  'proof.invalid': 'The link is incomplete or was changed. Open the proof from the requisition again.',
  'proof.failedHeading': 'The proof cannot be shown',
  'line.design': 'design {design}',
  'line.preview': 'Preview: {url}',
} as const;

/** A message's key: what pages name a text by. */
export type MessageKey = keyof typeof en;

/** A language's catalog: every key English has, no other. */
export type Messages = Readonly<Record<MessageKey, string>>;
