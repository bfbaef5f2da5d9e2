"""PNG previews, rasterised from the PDF we write (pypdfium2), so a preview shows the printed file."""

from __future__ import annotations

import io

import pypdfium2 as pdfium

#: Resolution of previews, dots per inch.
PREVIEW_DPI = 200


def pdf_page_png(pdf: bytes, page: int = 0, dpi: float = PREVIEW_DPI) -> bytes:
    """One page of a PDF as PNG bytes (white background), its resolution recorded in the file."""
    doc = pdfium.PdfDocument(pdf)
    try:
        bitmap = doc[page].render(scale=dpi / 72.0, fill_color=(255, 255, 255, 255))
        image = bitmap.to_pil().convert("RGB")
    finally:
        doc.close()
    out = io.BytesIO()
    image.save(out, format="PNG", dpi=(dpi, dpi))  # so a viewer or printer shows it at its true size
    return out.getvalue()
