#!/usr/bin/env bash
# Independent check of fiscal XML produced by the product, with tools outside the project's code:
# libxml2's xmllint against the official XSD in data/schemas, and xmlsec1 for XMLDSig.
#   tools/verify-dfe.sh FILE...    one line per file; exit 0 only if every file passes both checks
# The root element picks the schema. The signature is checked with the embedded X.509 key
# (--insecure: sandbox certificates are not ICP-Brasil). Adapted from the team's shared
# reference checker (tools/README.md); the schemas are the official ones the product validates with.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SCHEMAS="$HERE/../data/schemas"
NFE="$SCHEMAS/nfe/PL_010_V1.30"
NFSE="$SCHEMAS/nfse/1.01"
for tool in xmllint xmlsec1; do
  command -v "$tool" >/dev/null || { echo "verify-dfe: $tool is missing (Debian: apt-get install libxml2-utils xmlsec1)"; exit 2; }
done
fails=0
for f in "$@"; do
  root=$(xmllint --xpath 'local-name(/*)' "$f" 2>/dev/null)
  case "$root" in
    NFe)            xsd="$NFE/nfe_v4.00.xsd";           id=infNFe ;;
    nfeProc)        xsd="$NFE/procNFe_v4.00.xsd";       id=infNFe ;;
    enviNFe)        xsd="$NFE/enviNFe_v4.00.xsd";       id=infNFe ;;
    procEventoNFe)  xsd="$NFE/procEventoNFe_v1.00.xsd"; id=infEvento ;;
    ProcInutNFe)    xsd="$NFE/procInutNFe_v4.00.xsd";   id=infInut ;;
    DPS)            xsd="$NFSE/DPS_v1.01.xsd";          id=infDPS ;;
    NFSe)           xsd="$NFSE/NFSe_v1.01.xsd";         id=infNFSe ;;
    pedRegEvento)   xsd="$NFSE/pedRegEvento_v1.01.xsd"; id=infPedReg ;;
    evento)         xsd="$NFSE/evento_v1.01.xsd";       id=infEvento ;;
    *) echo "FAIL $f: unknown root '$root'"; fails=$((fails+1)); continue ;;
  esac
  if ! xsdout=$(xmllint --noout --schema "$xsd" "$f" 2>&1); then
    echo "FAIL $f: XSD $(basename "$xsd"): $(echo "$xsdout" | grep -v 'fails to validate' | head -2 | tr '\n' ' ')"
    fails=$((fails+1)); continue
  fi
  if ! sigout=$(xmlsec1 --verify --insecure --enabled-key-data x509 --id-attr:Id "$id" "$f" 2>&1); then
    echo "FAIL $f: signature: $(echo "$sigout" | grep -iE 'error|fail' | head -2 | tr '\n' ' ')"
    fails=$((fails+1)); continue
  fi
  echo "ok   $f ($root, $(basename "$xsd"), signature verified)"
done
echo "$(( $# - fails )) passed, $fails failed"
[ "$fails" -eq 0 ]
