# Writes OUT as the contents of HEADER followed by BODY (a tablegen pass doc).
file(READ ${HEADER} header)
file(READ ${BODY} body)
file(WRITE ${OUT} "${header}${body}")
