<?xml version="1.0" encoding="UTF-8"?>
<!-- The program matrix's Saxon stylesheet (matrix_documents_test.go):
     grouping, sorting, a function of its own, format-number and sq:probeSq
     (SqExt.java), which the test counts. -->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:m="urn:weft:matrix"
    xmlns:sq="urn:weft:sq"
    exclude-result-prefixes="xs m sq">
  <xsl:output method="xml" indent="yes"/>

  <xsl:function name="m:total" as="xs:decimal">
    <xsl:param name="sales" as="element(sale)*"/>
    <xsl:sequence select="sum($sales ! (xs:decimal(@qty) * xs:decimal(@price)))"/>
  </xsl:function>

  <xsl:template match="/sales">
    <report>
      <xsl:for-each-group select="sale" group-by="@region">
        <xsl:sort select="m:total(current-group())" order="descending"/>
        <region name="{current-grouping-key()}" sales="{count(current-group())}"
            total="{format-number(m:total(current-group()), '#,##0.00')}">
          <xsl:for-each select="current-group()">
            <xsl:sort select="@product"/>
            <line product="{@product}" amount="{format-number(xs:decimal(@qty) * xs:decimal(@price), '0.00')}"/>
          </xsl:for-each>
        </region>
      </xsl:for-each-group>
      <xsl:for-each-group select="sale" group-by="@product">
        <xsl:sort select="current-grouping-key()"/>
        <product name="{current-grouping-key()}" units="{format-number(sum(current-group()/@qty), '#,##0')}"
            share="{format-number(m:total(current-group()) div m:total(/sales/sale), '0.0%')}"/>
      </xsl:for-each-group>
      <squares sum="{sum((0 to 9) ! sq:probeSq(.))}"/>
      <grand-total><xsl:value-of select="format-number(m:total(sale), '#,##0.00')"/></grand-total>
    </report>
  </xsl:template>
</xsl:stylesheet>
